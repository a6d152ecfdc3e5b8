import type { AccountRecord, CallEvent, CallRecord } from '../model';
import { callDuration, isFinal } from './call-legs';
import type { CallRun } from './call-run';
import { dialConference } from './dial-conference';
import type { TwimlElement } from './twiml';
import {
  answerCall,
  applicationError,
  ERRORS,
  fetchTwiml,
  gone,
  reportError,
  type Step,
  type VoiceContext,
  wholeNumber,
} from './voice-context';

const E164 = /^\+[1-9]\d{6,14}$/;
/** `<Dial timeout>`: 30 seconds unless given, 5 to 600. https://www.twilio.com/docs/voice/twiml/dial#timeout */
const DIAL_TIMEOUT = { default: 30, min: 5, max: 600 };

/**
 * `<Dial>`: makes one child leg per noun (`outbound-dial`, ringing all at once), bridges the first
 * to answer and cancels the rest, ends the unanswered legs `no-answer` when the timeout passes,
 * then requests the `action` with DialCallStatus, DialCallSid, DialCallDuration and DialBridged
 * and carries out what it answers (or goes on with the next verb without an action). With
 * `answerOnBridge` the caller's call stays ringing until a leg answers.
 * https://www.twilio.com/docs/voice/twiml/dial#action
 * https://www.twilio.com/docs/voice/twiml/client
 */
export async function dial(
  ctx: VoiceContext,
  account: AccountRecord,
  parent: CallRecord,
  callRun: CallRun,
  verb: TwimlElement,
  base: string,
): Promise<Step> {
  const { attributes } = verb;
  const conference = verb.children.find((n) => n.name === 'Conference');
  if (conference) return dialConference(ctx, account, parent, callRun, verb, conference, base);
  if (attributes.answerOnBridge !== 'true') answerCall(ctx, account, parent);
  const timeout = wholeNumber(attributes.timeout, DIAL_TIMEOUT.default, DIAL_TIMEOUT.min, DIAL_TIMEOUT.max);
  const callerId = attributes.callerId?.trim() || undefined;
  const nouns = verb.children.filter((n) => n.name === 'Client' || n.name === 'Number');
  if (nouns.length === 0 && verb.text) nouns.push({ name: 'Number', attributes: {}, children: [], text: verb.text });

  const dialled: CallRecord[] = [];
  for (const noun of nouns) {
    const identity = noun.name === 'Client' ? (noun.children.find((c) => c.name === 'Identity')?.text ?? noun.text) : '';
    const to = noun.name === 'Client' ? `client:${identity}` : noun.text;
    const from = callerId ?? parent.from;
    const subscribed = (noun.attributes.statusCallbackEvent ?? '').split(/[\s,]+/).filter(isCallEvent);
    const leg = ctx.legs.create(account, {
      parentCallSid: parent.sid,
      direction: 'outbound-dial',
      from,
      to,
      status: 'queued',
      parameters: Object.fromEntries(
        noun.children.filter((c) => c.name === 'Parameter').map((c) => [c.attributes.name ?? '', c.attributes.value ?? '']),
      ),
      statusCallback: noun.attributes.statusCallback ? new URL(noun.attributes.statusCallback, base).toString() : '',
      statusCallbackMethod: noun.attributes.statusCallbackMethod?.toUpperCase() === 'GET' ? 'GET' : 'POST',
      // A statusCallback without events hears of `completed` only.
      statusCallbackEvents: subscribed.length ? subscribed : ['completed'],
    });
    dialled.push(leg);
    const problem =
      noun.name === 'Number' && !E164.test(to)
        ? ([ERRORS.invalidNumber, `Dial: Invalid phone number format: ${to}`] as const)
        : noun.name === 'Number' && !E164.test(from)
          ? ([ERRORS.invalidCallerId, `Dial: Invalid callerId value: ${from}`] as const)
          : noun.name === 'Client' && !identity
            ? ([ERRORS.schema, '<Client> without an identity'] as const)
            : undefined;
    if (problem) {
      reportError(ctx, account, parent, problem[0], problem[1]);
      ctx.legs.setStatus(account, leg, 'failed');
    } else {
      ctx.legs.setStatus(account, leg, 'initiated');
      ctx.legs.setStatus(account, leg, 'ringing');
    }
  }

  // Ringing: until one answers, all end, the caller hangs up, or the timeout passes.
  const deadline = Date.now() + timeout * 1000 * ctx.timeScale(account.sid);
  let timedOut = false;
  const answered = () => dialled.find((leg) => leg.answeredAt);
  while (!callRun.callerGone && !callRun.redirect && !answered() && !timedOut && !dialled.every(isFinal)) {
    timedOut = (await callRun.sleep(Math.max(0, deadline - Date.now()))) === 'time';
  }
  const winner = answered();
  for (const leg of dialled) {
    if (leg !== winner) ctx.legs.setStatus(account, leg, timedOut && !callRun.callerGone && !winner ? 'no-answer' : 'canceled');
  }

  // The answered leg redirected to TwiML of its own (a conference) left the bridge: it goes on alone.
  const leftBridge = (leg: CallRecord) => ctx.runs.has(leg.sid);
  if (winner) {
    answerCall(ctx, account, parent, winner.to);
    // Bridged: until either side hangs up, or the leg is redirected.
    while (!callRun.callerGone && !callRun.redirect && !isFinal(winner) && !leftBridge(winner)) await callRun.sleep();
    if (!leftBridge(winner)) ctx.legs.setStatus(account, winner, 'completed');
  }

  const dialCallStatus = winner
    ? 'completed'
    : callRun.callerGone
      ? 'canceled'
      : dialled.some((leg) => leg.status === 'busy')
        ? 'busy'
        : dialled.length > 0 && dialled.every((leg) => leg.status === 'failed')
          ? 'failed'
          : 'no-answer';
  const action = attributes.action;
  // Redirected away from the Dial: its action is not requested.
  if (callRun.redirect) return 'next';
  if (!action) return callRun.callerGone ? 'stop' : 'next';

  // Gone with a reset: nobody is left to tell.
  if (gone(ctx, parent)) return 'stop';
  const dialCallSid = winner?.sid ?? (dialled.length === 1 ? dialled[0]?.sid : undefined);
  const url = new URL(action, base).toString();
  const document = await fetchTwiml(
    ctx,
    account,
    parent,
    'dial-action',
    { url, method: attributes.method?.toUpperCase() === 'GET' ? 'GET' : 'POST' },
    {
      // The caller may have gone: the action still hears of it, and what it answers is not carried out.
      CallStatus: callRun.callerGone ? (parent.answeredAt ? 'completed' : 'canceled') : parent.status,
      DialCallStatus: dialCallStatus,
      DialBridged: winner ? 'true' : 'false',
      ...(dialCallSid ? { DialCallSid: dialCallSid } : {}),
      ...(winner ? { DialCallDuration: String(callDuration(winner, ctx.store.clock)) } : {}),
    },
  );
  if (callRun.callerGone || gone(ctx, parent)) return 'stop';
  if (!document) {
    applicationError(ctx, account, parent);
    return 'stop';
  }
  callRun.documentUrl = document.url;
  return document.verbs;
}

function isCallEvent(value: string): value is CallEvent {
  return value === 'initiated' || value === 'ringing' || value === 'answered' || value === 'completed';
}
