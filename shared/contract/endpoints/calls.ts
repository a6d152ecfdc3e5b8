// Written by shared/contract/write-endpoints.ts from the contracts: do not edit.
/** The HTTP contracts of calls.ts without their schemas (route.ts, Endpoint): what the web app calls them by. */
import type * as contracts from '../calls';
import type { Endpoint } from '../route';

export const callRecordingAudio: Endpoint<typeof contracts.callRecordingAudio> = {
  method: 'GET',
  path: '/api/v1/calls/{callId}/recording',
  auth: 'user',
};

export const listCalls: Endpoint<typeof contracts.listCalls> = {
  method: 'GET',
  path: '/api/v1/calls',
  auth: 'user',
};

export const pauseCallRecording: Endpoint<typeof contracts.pauseCallRecording> = {
  method: 'PATCH',
  path: '/api/v1/calls/{callId}/recording',
  auth: 'user',
};

export const voicemailAudio: Endpoint<typeof contracts.voicemailAudio> = {
  method: 'GET',
  path: '/api/v1/calls/{id}/voicemail',
  auth: 'user',
};
