import type { AccountRecord, CallRecord, WebhookMethod } from '../model';
import { isFinal } from './call-legs';
import type { CallRun } from './call-run';
import { conferenceEvents, isTrue } from './conference-fields';
import type { TwimlElement } from './twiml';
import { answerCall, applicationError, fetchTwiml, gone, type Step, type VoiceContext } from './voice-context';

const method = (value: string | undefined): WebhookMethod => (value?.toUpperCase() === 'GET' ? 'GET' : 'POST');

/**
 * `<Dial><Conference>`: answers the call and joins it to the conference of that name (made if none is
 * under way), until the caller hangs up, the call is redirected, it is removed, or the conference
 * ends; then the Dial's action is requested (DialCallStatus `completed`) or the next verb follows.
 * https://www.twilio.com/docs/voice/twiml/conference
 */
export async function dialConference(
  ctx: VoiceContext,
  account: AccountRecord,
  call: CallRecord,
  callRun: CallRun,
  verb: TwimlElement,
  noun: TwimlElement,
  base: string,
): Promise<Step> {
  const { attributes } = noun;
  answerCall(ctx, account, call);
  const url = (value: string | undefined) => (value ? new URL(value, base).toString() : undefined);
  ctx.conferences.join(account, call, {
    name: noun.text,
    label: attributes.participantLabel ?? null,
    muted: isTrue(attributes.muted),
    beep: attributes.beep ?? 'true',
    startConferenceOnEnter: attributes.startConferenceOnEnter?.toLowerCase() !== 'false',
    endConferenceOnExit: isTrue(attributes.endConferenceOnExit),
    waitUrl: url(attributes.waitUrl),
    waitMethod: method(attributes.waitMethod),
    statusCallback: url(attributes.statusCallback),
    statusCallbackMethod: method(attributes.statusCallbackMethod),
    // Without statusCallbackEvent Twilio posts start and end.
    statusCallbackEvents: attributes.statusCallbackEvent ? conferenceEvents(attributes.statusCallbackEvent) : ['start', 'end'],
  });
  while (!callRun.callerGone && !callRun.redirect && !isFinal(call) && ctx.conferences.isIn(account, call.sid))
    await callRun.sleep();
  ctx.conferences.leave(account, call.sid, 'left');

  if (callRun.redirect) return 'next';
  const action = verb.attributes.action;
  if (!action) return callRun.callerGone ? 'stop' : 'next';
  if (gone(ctx, call)) return 'stop';
  const document = await fetchTwiml(
    ctx,
    account,
    call,
    'dial-action',
    { url: new URL(action, base).toString(), method: method(verb.attributes.method) },
    { CallStatus: callRun.callerGone ? 'completed' : call.status, DialCallStatus: 'completed' },
  );
  if (callRun.callerGone || gone(ctx, call)) return 'stop';
  if (!document) {
    applicationError(ctx, account, call);
    return 'stop';
  }
  callRun.documentUrl = document.url;
  return document.verbs;
}
