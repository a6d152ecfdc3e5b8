// Written by shared/contract/write-endpoints.ts from the contracts: do not edit.
/** The HTTP contracts of voice.ts without their schemas (route.ts, Endpoint): what the web app calls them by. */
import type { Endpoint } from '../route';
import type * as contracts from '../voice';

export const callStatusWebhook: Endpoint<typeof contracts.callStatusWebhook> = {
  method: 'POST',
  path: '/webhooks/twilio/{webhookId}/voice/status',
  auth: 'twilio',
};

export const companySettings: Endpoint<typeof contracts.companySettings> = {
  method: 'GET',
  path: '/api/v1/company/settings',
  auth: 'user',
};

export const dialResultWebhook: Endpoint<typeof contracts.dialResultWebhook> = {
  method: 'POST',
  path: '/webhooks/twilio/{webhookId}/voice/dial-result',
  auth: 'twilio',
};

export const inboundCallWebhook: Endpoint<typeof contracts.inboundCallWebhook> = {
  method: 'POST',
  path: '/webhooks/twilio/{webhookId}/voice',
  auth: 'twilio',
};

export const listCallerIds: Endpoint<typeof contracts.listCallerIds> = {
  method: 'GET',
  path: '/api/v1/voice/caller-ids',
  auth: 'user',
};

export const outboundCallWebhook: Endpoint<typeof contracts.outboundCallWebhook> = {
  method: 'POST',
  path: '/webhooks/twilio/{webhookId}/voice/outbound',
  auth: 'twilio',
};

export const recordingStatusWebhook: Endpoint<typeof contracts.recordingStatusWebhook> = {
  method: 'POST',
  path: '/webhooks/twilio/{webhookId}/voice/recording',
  auth: 'twilio',
};

export const updateCallingSettings: Endpoint<typeof contracts.updateCallingSettings> = {
  method: 'PUT',
  path: '/api/v1/company/settings/calling',
  auth: 'user',
  roles: ['OWNER', 'ADMIN'],
};

export const voicemailRecordedWebhook: Endpoint<typeof contracts.voicemailRecordedWebhook> = {
  method: 'POST',
  path: '/webhooks/twilio/{webhookId}/voice/voicemail',
  auth: 'twilio',
};

export const voiceToken: Endpoint<typeof contracts.voiceToken> = {
  method: 'POST',
  path: '/api/v1/voice/token',
  auth: 'user',
};
