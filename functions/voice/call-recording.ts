import type { CallRecording } from '../../shared/contract/calls';
// The schema-free descriptor: only its path is needed here.
import { recordingStatusWebhook } from '../../shared/contract/endpoints/voice';
import { conflict, notFound } from '../lib/app-error';
import { logError } from '../lib/log';
import type { ProviderRecord } from '../settings/records';
import { clientFor, fromTwilio } from '../settings/twilio-account';
import { companyProvider, contentFromTwilio } from '../settings/twilio-content';
import { signedWebhookUrl } from '../settings/webhook-urls';
import type { LoadedViewer } from '../team/visibility';
import { answeredLeg, type CallRecord, type CallRecordingState, toRecording } from './call-records';
import { viewerSeesCall } from './call-visibility';
import { changeCall, findCall } from './call-writes';

/**
 * Call recording with consent (docs/product.md: Call recording). A call to or from a number whose
 * routing records — its inbox's "Record calls", or the company's "Record calls to private lines" for
 * a number routed to a member — is marked when it begins; the caller hears the disclosure before
 * anyone rings (inbound-call.ts), and Twilio records the customer's leg from the moment an agent
 * answers, both parties on channels of their own. Recording the customer's leg, rather than the
 * agent's, keeps one recording whoever the call is handed to.
 */

const isPhoneLeg = (party: string) => !party.startsWith('client:');

/**
 * The leg to record once the call is answered: the caller's own (inbound, when an agent's leg was
 * first picked up), or the dialled number's (outbound, when it answered). None yet, or already.
 */
function legToRecord(before: CallRecord, after: CallRecord): string | undefined {
  if (!after.recordsCall || after.recording || after.endedAt) return undefined;
  if (after.direction === 'INBOUND') return !before.answeredBy && after.answeredBy ? after.providerCallId : undefined;
  const answered = Object.entries(after.legs).find(([, leg]) => isPhoneLeg(leg.party) && leg.status === 'in-progress');
  return answered?.[0];
}

/**
 * Starts recording a call that was just answered, once (a copy of the callback finds it started).
 * Twilio refusing leaves the call FAILED to record, and the call goes on.
 */
export async function recordOnAnswer(companyId: string, before: CallRecord, after: CallRecord): Promise<void> {
  const legSid = legToRecord(before, after);
  if (!legSid) return;
  const state: CallRecordingState = {
    legSid,
    recordingSid: null,
    recordingUrl: null,
    status: 'RECORDING',
    durationSeconds: 0,
    startedAt: new Date().toISOString(),
  };
  let mine = false;
  await changeCall(companyId, after.providerCallId, (call) => {
    mine = !call.recording;
    return mine ? { ...call, recording: state } : call;
  });
  if (!mine) return;
  let recordingSid: string | null = null;
  try {
    const provider = await companyProvider(companyId);
    if (!provider) throw new Error('No Twilio account');
    const client = await clientFor(provider);
    recordingSid = (await client.startCallRecording(legSid, statusCallbackOf(provider, after.providerCallId))).sid;
  } catch (error) {
    logError({ route: 'call-recording', companyId, callSid: after.providerCallId }, error);
  }
  await changeCall(companyId, after.providerCallId, (call) =>
    call.recording && call.recording.recordingSid === null
      ? { ...call, recording: { ...call.recording, recordingSid, ...(recordingSid ? {} : { status: 'FAILED' as const }) } }
      : call,
  );
}

/** The recording's status callback: the call's CallSid rides in its query (the recorded leg may be a child leg). */
function statusCallbackOf(provider: ProviderRecord, callSid: string) {
  return `${signedWebhookUrl(provider, recordingStatusWebhook)}?callSid=${encodeURIComponent(callSid)}`;
}

/** The member is on the call: the agent who took it (inbound) or placed it (outbound). */
const onCall = (call: CallRecord, userId: string) => call.answeredBy?.id === userId;

/**
 * Pauses or resumes the recording of a call under way, by the member on it. Another company's call,
 * or one the member is not on: 404; a call not being recorded (never, not yet, or over): 409.
 */
export async function pauseRecording(
  caller: { companyId: string; userId: string },
  callSid: string,
  paused: boolean,
): Promise<CallRecording> {
  const { companyId, userId } = caller;
  const call = await findCall(companyId, callSid);
  if (!call || !onCall(call, userId)) throw notFound('Call not found');
  const recording = call.recording;
  if (
    !recording ||
    call.endedAt ||
    !answeredOrPlaced(call) ||
    (recording.status !== 'RECORDING' && recording.status !== 'PAUSED')
  )
    throw conflict('This call is not being recorded.');
  if (!recording.recordingSid) throw conflict('The recording is still starting. Try again in a moment.');
  const wanted = paused ? 'PAUSED' : 'RECORDING';
  if (recording.status !== wanted) {
    try {
      const provider = await companyProvider(companyId);
      if (!provider) throw notFound('Call not found');
      const client = await clientFor(provider);
      await client.updateCallRecording(recording.legSid, recording.recordingSid, paused ? 'paused' : 'in-progress');
    } catch (error) {
      return fromTwilio(error, paused ? 'pause the recording' : 'resume the recording');
    }
  }
  const changed = await changeCall(companyId, callSid, (record) =>
    record.recording && (record.recording.status === 'RECORDING' || record.recording.status === 'PAUSED')
      ? { ...record, recording: { ...record.recording, status: wanted } }
      : record,
  );
  const after = changed?.after.recording ?? { ...recording, status: wanted };
  return toRecording(callSid, after);
}

const answeredOrPlaced = (call: CallRecord) => call.direction === 'OUTBOUND' || answeredLeg(call) !== undefined;

/**
 * A call's recording, from Twilio with the company's credentials, as the voicemail is: to those who
 * see the call (docs/product.md: Who sees what), kept by no cache. Another company's call, one without
 * a completed recording, or one the member does not see: not found, in the same words.
 */
export async function callRecordingAudio(
  viewer: LoadedViewer & { companyId: string },
  callSid: string,
): Promise<{ binary: Buffer; contentType: string; cacheControl: string }> {
  const call = await findCall(viewer.companyId, callSid);
  const url = call?.recording?.status === 'COMPLETED' ? call.recording.recordingUrl : null;
  if (!call || !url || !viewerSeesCall(viewer, call)) throw notFound('Recording not found');
  // MP3: a tenth of the WAV's size, so a long call still fits a function's answer.
  const content = await contentFromTwilio(viewer.companyId, url.replace(/\.(wav|mp3)$/i, ''), {
    name: 'recording',
    suffix: '.mp3',
  });
  const contentType = content.contentType.startsWith('audio/') ? content.contentType : 'audio/mpeg';
  // Kept by no cache (docs/security.md: Media in the browser).
  return { binary: content.bytes, contentType, cacheControl: 'private, no-store' };
}
