import type { AccountRecord, CallRecord, WebhookMethod } from '../model';
import { isFinal } from './call-legs';
import type { CallRun } from './call-run';
import { dial } from './dial';
import { record } from './record';
import { parseTwiml, type TwimlElement } from './twiml';
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

/**
 * The TwiML interpreter: runs what the product answers, verb by verb (`<Say>`, `<Pause>`, `<Hangup>`,
 * `<Reject>`, `<Dial>` in dial.ts), following redirects made through the Call resource.
 */

/** Runs the call's TwiML from its first document to its end, then ends the call. */
export async function run(
  ctx: VoiceContext,
  account: AccountRecord,
  call: CallRecord,
  first: { url: string; method: WebhookMethod; fallback?: { url: string; method: WebhookMethod } },
  extra: Record<string, string>,
  callRun: CallRun,
) {
  try {
    // A participant's call redirected out of its conference starts from its redirect, not a Voice URL.
    const document = callRun.redirect ? { verbs: [], url: '' } : await fetchTwiml(ctx, account, call, 'voice-url', first, extra);
    if (!document) {
      applicationError(ctx, account, call);
    } else {
      let verbs = document.verbs;
      let base = document.url;
      callRun.documentUrl = base;
      for (let i = 0; !callRun.callerGone && !isFinal(call) && !gone(ctx, call); ) {
        if (callRun.redirect) {
          const redirected = await redirectTo(ctx, account, call, callRun);
          if (!redirected) break;
          verbs = redirected;
          i = 0;
          base = callRun.documentUrl ?? base;
          continue;
        }
        const verb = verbs[i++];
        if (!verb) break;
        const step = await execute(ctx, account, call, callRun, verb, base);
        if (step === 'stop') break;
        if (step !== 'next') {
          verbs = step;
          i = 0;
          base = callRun.documentUrl ?? base;
        }
      }
    }
    if (!gone(ctx, call)) {
      // The end of the document hangs up; a call no verb answered is answered first, as Twilio does.
      if (callRun.callerGone) ctx.legs.setStatus(account, call, call.answeredAt ? 'completed' : 'canceled');
      else {
        answerCall(ctx, account, call);
        ctx.legs.setStatus(account, call, 'completed');
      }
    }
  } catch (error) {
    ctx.log.error(`call ${call.sid}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    if (!gone(ctx, call)) ctx.legs.setStatus(account, call, call.answeredAt ? 'completed' : 'failed');
  } finally {
    ctx.runs.delete(call.sid);
    callRun.end();
  }
}

/** Takes the TwiML the call was redirected to: given as a document, or fetched from a URL. */
async function redirectTo(
  ctx: VoiceContext,
  account: AccountRecord,
  call: CallRecord,
  callRun: CallRun,
): Promise<TwimlElement[] | undefined> {
  const redirect = callRun.redirect ?? {};
  callRun.redirect = undefined;
  if (redirect.twiml !== undefined) {
    const document = parseTwiml(redirect.twiml);
    if (document.ok) return document.verbs;
    reportError(ctx, account, call, ERRORS.parse, `Document parse failure: ${document.error}`);
  } else if (redirect.url) {
    const document = await fetchTwiml(
      ctx,
      account,
      call,
      'redirect',
      { url: redirect.url, method: redirect.method ?? 'POST' },
      {},
    );
    if (document) {
      callRun.documentUrl = document.url;
      return document.verbs;
    }
  }
  applicationError(ctx, account, call);
  return undefined;
}

async function execute(
  ctx: VoiceContext,
  account: AccountRecord,
  call: CallRecord,
  callRun: CallRun,
  verb: TwimlElement,
  base: string,
): Promise<Step> {
  switch (verb.name) {
    case 'Say':
      answerCall(ctx, account, call);
      ctx.legs.change(account, call, (c) => c.said.push(verb.text));
      return 'next';
    case 'Pause': {
      answerCall(ctx, account, call);
      const seconds = wholeNumber(verb.attributes.length, 1, 0, 3600);
      const deadline = Date.now() + seconds * 1000 * ctx.timeScale(account.sid);
      while (!callRun.callerGone && !callRun.redirect && (await callRun.sleep(Math.max(0, deadline - Date.now()))) === 'wake');
      return callRun.callerGone ? 'stop' : 'next';
    }
    case 'Hangup':
      answerCall(ctx, account, call);
      return 'stop';
    case 'Reject':
      // Only a first verb can refuse the call unanswered: busy or no-answer as `reason` says.
      // https://www.twilio.com/docs/voice/twiml/reject
      if (!call.answeredAt) ctx.legs.setStatus(account, call, verb.attributes.reason === 'busy' ? 'busy' : 'no-answer');
      return 'stop';
    case 'Dial':
      return dial(ctx, account, call, callRun, verb, base);
    case 'Record':
      return record(ctx, account, call, callRun, verb, base);
    default:
      answerCall(ctx, account, call);
      reportError(ctx, account, call, ERRORS.schema, `<${verb.name}> is not carried out by the emulator; skipped.`);
      return 'next';
  }
}
