import * as callControls from '@shared/contract/endpoints/call-controls';
import * as calls from '@shared/contract/endpoints/calls';
import * as voice from '@shared/contract/endpoints/voice';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api, session } from '@/lib/services';
import { createVoiceTokens } from '../device/voice-tokens';

/** POST /voice/token (docs/product.md §7): at initialisation and again before the token expires. */
export const fetchVoiceToken = () => api.call(voice.voiceToken).then((d) => d.token);

/** The signed-in user's voice token, reused across page loads and tabs while it has time left. */
export const voiceTokens = createVoiceTokens({
  fetchToken: fetchVoiceToken,
  storage: window.localStorage,
  userId: () => session.get()?.user.id,
  // Absent only in very old browsers: then two tabs opening at once may each ask for a token.
  locks: navigator.locks,
});

/** GET /voice/caller-ids: the numbers this user may call from (their inboxes' and their own). */
export const callerIdsQuery = () =>
  queryOptions({
    queryKey: ['voice', 'caller-ids'] as const,
    queryFn: () => api.call(voice.listCallerIds).then((d) => d.callerIds),
  });

export const useCallerIds = () => useQuery(callerIdsQuery());

/** PATCH /calls/{callId}/recording: the agent on the call pauses or resumes its recording (docs/product.md: Call recording). */
export const pauseCallRecording = (callSid: string, paused: boolean) =>
  api.call(calls.pauseCallRecording, { params: { callId: callSid }, body: { paused } }).then((d) => d.recording);

export const usePauseRecording = (callSid: string) =>
  useMutation({ mutationFn: (paused: boolean) => pauseCallRecording(callSid, paused), retry: false });
/**
 * POST /calls/{callId}/hold (docs/product.md: Hold): puts the customer on hold or brings them back; the
 * call answered carries `held`. `callId` is the call as the widget knows it (CallInfo.callSid).
 */
export const holdCall = (callId: string, held: boolean) =>
  api.call(callControls.holdCall, { params: { callId }, body: { held } }).then((d) => d.call);

export const useHoldCall = () =>
  useMutation({ mutationFn: (input: { callId: string; held: boolean }) => holdCall(input.callId, input.held) });
