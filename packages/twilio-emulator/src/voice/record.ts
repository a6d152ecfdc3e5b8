import { type AccountRecord, type CallRecord, newSid, now, type RecordingRecord, rfc2822, type WebhookMethod } from '../model';
import { deliverWebhook } from '../webhooks';
import type { CallRun, RecordingUnderWay } from './call-run';
import { recordingPath } from './recordings-representation';
import type { TwimlElement } from './twiml';
import { answerCall, applicationError, fetchTwiml, gone, type Step, type VoiceContext, wholeNumber } from './voice-context';

/** `<Record maxLength>`: 3600 seconds unless given, at most 14400. https://www.twilio.com/docs/voice/twiml/record */
const MAX_LENGTH = { default: 3600, min: 1, max: 14_400 };
const DEFAULT_FINISH_ON_KEY = '1234567890*#';
type RecordingEvent = 'in-progress' | 'completed' | 'absent';

export function recordedSeconds(recording: RecordingUnderWay, clockNow: number): number {
  const measured = Math.max(0, Math.floor((clockNow - recording.startedAt) / 1000));
  return Math.min(recording.maxLength, measured + recording.spokenSeconds);
}

/**
 * `<Record>`: answers the call, records until the caller hangs up, presses a finishOnKey or maxLength
 * passes, then makes a Recording (`RE…`), requests the action (the current document's URL when none
 * is given) with RecordingUrl, RecordingDuration, RecordingSid and Digits, and posts the signed
 * recordingStatusCallback for the events asked (`completed` unless given). A caller who hung up still
 * has the action requested; its TwiML is not carried out. A recording of no length is `absent`.
 * https://www.twilio.com/docs/voice/twiml/record
 */
export async function record(
  ctx: VoiceContext,
  account: AccountRecord,
  call: CallRecord,
  callRun: CallRun,
  verb: TwimlElement,
  base: string,
): Promise<Step> {
  const { attributes } = verb;
  answerCall(ctx, account, call);
  const maxLength = wholeNumber(attributes.maxLength, MAX_LENGTH.default, MAX_LENGTH.min, MAX_LENGTH.max);
  const finishOnKey = attributes.finishOnKey ?? DEFAULT_FINISH_ON_KEY;
  const events = (attributes.recordingStatusCallbackEvent ?? 'completed')
    .split(/[\s,]+/)
    .filter((e): e is RecordingEvent => e === 'in-progress' || e === 'completed' || e === 'absent');
  const callback = attributes.recordingStatusCallback
    ? {
        url: new URL(attributes.recordingStatusCallback, base).toString(),
        method: (attributes.recordingStatusCallbackMethod?.toUpperCase() === 'GET' ? 'GET' : 'POST') as WebhookMethod,
      }
    : undefined;

  const at = now(ctx.store.clock);
  const recording: RecordingRecord = {
    sid: newSid('RE'),
    callSid: call.sid,
    status: 'in-progress',
    durationSeconds: 0,
    errorCode: null,
    startTime: at,
    dateCreated: at,
    dateUpdated: at,
    playBeep: attributes.playBeep !== 'false',
    callbacks: [],
  };
  ctx.store.change(() => account.recordings.push(recording));
  const underWay: RecordingUnderWay = { startedAt: ctx.store.clock.now(), spokenSeconds: 0, maxLength, finishOnKey };
  callRun.recording = underWay;
  const notify = async (event: RecordingEvent) => {
    if (!callback || !events.includes(event) || gone(ctx, call)) return;
    const attempt = await deliverWebhook({
      ...callback,
      params: statusParams(ctx, account, recording),
      authToken: account.authToken,
      signal: ctx.signal,
      lost: ctx.store.faults.takeWebhookDrop(account.sid),
      clock: ctx.store.clock,
    });
    if (!gone(ctx, call)) ctx.store.change(() => recording.callbacks.push({ ...attempt, event }));
  };
  await notify('in-progress');

  // Real time bounds it too (scaled as a Pause), so a forgotten call ends; `advance` ends it at maxLength.
  const deadline = Date.now() + maxLength * 1000 * ctx.timeScale(account.sid);
  let reachedMaxLength = false;
  while (!callRun.callerGone && !callRun.redirect && underWay.pressed === undefined) {
    if (recordedSeconds(underWay, ctx.store.clock.now()) >= maxLength) break;
    if ((await callRun.sleep(Math.max(0, deadline - Date.now()))) === 'time') {
      reachedMaxLength = true;
      break;
    }
  }
  callRun.recording = undefined;
  if (gone(ctx, call)) return 'stop';
  const seconds = reachedMaxLength ? maxLength : recordedSeconds(underWay, ctx.store.clock.now());
  ctx.store.change(() => {
    recording.durationSeconds = seconds;
    recording.status = seconds > 0 ? 'completed' : 'absent';
    recording.dateUpdated = now(ctx.store.clock);
  });
  // Redirected away: the recording is kept; the action is not requested.
  if (callRun.redirect) {
    await notify(recording.status === 'completed' ? 'completed' : 'absent');
    return 'next';
  }

  const url = new URL(attributes.action ?? base, base).toString();
  const callerGone = callRun.callerGone;
  const document = await fetchTwiml(
    ctx,
    account,
    call,
    'record-action',
    { url, method: attributes.method?.toUpperCase() === 'GET' ? 'GET' : 'POST' },
    {
      CallStatus: callerGone ? 'completed' : call.status,
      RecordingUrl: `${ctx.baseUrl()}${recordingPath(account.sid, recording.sid)}`,
      RecordingDuration: String(seconds),
      RecordingSid: recording.sid,
      ...(callerGone ? { Digits: 'hangup' } : underWay.pressed !== undefined ? { Digits: underWay.pressed } : {}),
    },
  );
  await notify(recording.status === 'completed' ? 'completed' : 'absent');
  if (callerGone || callRun.callerGone || gone(ctx, call)) return 'stop';
  if (!document) {
    applicationError(ctx, account, call);
    return 'stop';
  }
  callRun.documentUrl = document.url;
  return document.verbs;
}

/** Twilio's recording status callback parameters. https://www.twilio.com/docs/voice/twiml/record#recordingstatuscallback */
function statusParams(ctx: VoiceContext, account: AccountRecord, recording: RecordingRecord): Record<string, string> {
  return {
    AccountSid: account.sid,
    CallSid: recording.callSid,
    RecordingSid: recording.sid,
    RecordingUrl: `${ctx.baseUrl()}${recordingPath(account.sid, recording.sid)}`,
    RecordingStatus: recording.status,
    RecordingDuration: recording.status === 'in-progress' ? '-1' : String(recording.durationSeconds),
    RecordingChannels: '1',
    RecordingStartTime: rfc2822(recording.startTime),
    RecordingSource: 'RecordVerb',
    ...(recording.errorCode === null ? {} : { ErrorCode: String(recording.errorCode) }),
  };
}
