import type { Logger } from '../log';
import { type AccountRecord, type CallRecord, now, type WebhookMethod } from '../model';
import type { EmulatorStore } from '../store';
import { deliverWebhook } from '../webhooks';
import { type CallLegs, callParams } from './call-legs';
import type { CallRun } from './call-run';
import type { ConferenceSeat } from './conference-fields';
import { parseTwiml, type TwimlElement } from './twiml';

/**
 * What the TwiML interpreter (interpreter.ts, dial.ts) works with: the parts startVoice sets up once
 * for every call, and the small steps they share (answer, report an error, fetch a document).
 */
export interface VoiceContext {
  store: EmulatorStore;
  log: Logger;
  legs: CallLegs;
  timeScale: (accountSid: string) => number;
  /** Aborted when the emulator stops. */
  signal: AbortSignal;
  /** The runs of calls under way, by the SID of the call whose TwiML runs (the parent). */
  runs: Map<string, CallRun>;
  /** The emulator's own address: the base of the RecordingUrl it sends. */
  baseUrl: () => string;
  /** The account's conferences: joined by `<Dial><Conference>`, changed through their resources. */
  conferences: ConferenceSeat;
}

/** Twilio reads TwiML documents up to 64 KB. */
const MAX_TWIML_CHARS = 64 * 1024;
/** What a caller hears when the product's TwiML cannot be had. */
const APPLICATION_ERROR = 'We are sorry, an application error has occurred. Goodbye.';
/** Twilio's debugger codes the emulator reports. https://www.twilio.com/docs/api/errors */
export const ERRORS = {
  retrieval: 11200,
  parse: 12100,
  schema: 12200,
  invalidCallerId: 13214,
  invalidNumber: 13223,
} as const;

/** What a verb leads to: the next verb, the end of the call, or another document. */
export type Step = 'next' | 'stop' | TwimlElement[];

/** The emulator stopped, or a reset took the call away. */
export const gone = (ctx: VoiceContext, call: CallRecord) => ctx.signal.aborted || !ctx.store.findCall(call.sid);

export function answerCall(ctx: VoiceContext, account: AccountRecord, call: CallRecord, by?: string) {
  if (call.status === 'ringing' || call.status === 'queued' || call.status === 'initiated')
    ctx.legs.setStatus(account, call, 'in-progress', by);
}

export function reportError(ctx: VoiceContext, account: AccountRecord, call: CallRecord, code: number, message: string) {
  ctx.log.warn(`call ${call.sid}: ${code} ${message}`);
  ctx.legs.change(account, call, (c) => c.errors.push({ code, message, at: now(ctx.store.clock) }));
}

/**
 * Requests a TwiML document for the call and reads it. A failed request (no answer, 4xx/5xx) is
 * Twilio's 11200 and moves to the fallback URL when there is one; an unreadable document is 12100.
 */
export async function fetchTwiml(
  ctx: VoiceContext,
  account: AccountRecord,
  call: CallRecord,
  purpose: 'voice-url' | 'dial-action' | 'record-action' | 'redirect',
  target: { url: string; method: WebhookMethod; fallback?: { url: string; method: WebhookMethod } },
  extra: Record<string, string>,
): Promise<{ verbs: TwimlElement[]; url: string } | undefined> {
  const attempts = [
    { ...target, purpose },
    ...(target.fallback?.url ? [{ ...target.fallback, purpose: 'voice-fallback-url' as const }] : []),
  ];
  for (const attempt of attempts) {
    const params = { ...callParams(account, call), ...extra };
    const answer = await deliverWebhook({
      url: attempt.url,
      method: attempt.method,
      params,
      authToken: account.authToken,
      signal: ctx.signal,
      keepChars: MAX_TWIML_CHARS,
      lost: ctx.store.faults.takeWebhookDrop(account.sid),
      clock: ctx.store.clock,
    });
    if (gone(ctx, call)) return undefined;
    ctx.legs.change(account, call, (c) => c.twiml.push({ ...answer, purpose: attempt.purpose, params }));
    if (answer.status === null || answer.status >= 400) {
      reportError(
        ctx,
        account,
        call,
        ERRORS.retrieval,
        `HTTP retrieval failure: ${attempt.url} answered ${answer.status ?? answer.body}`,
      );
      continue;
    }
    const document = parseTwiml(answer.body);
    if (!document.ok) {
      reportError(ctx, account, call, ERRORS.parse, `Document parse failure: ${document.error}`);
      continue;
    }
    return { verbs: document.verbs, url: attempt.url };
  }
  return undefined;
}

export function applicationError(ctx: VoiceContext, account: AccountRecord, call: CallRecord) {
  answerCall(ctx, account, call);
  ctx.legs.change(account, call, (c) => c.said.push(APPLICATION_ERROR));
}

/** A whole-number attribute within bounds; a missing or unreadable one takes the default. */
export function wholeNumber(value: string | undefined, fallback: number, min: number, max: number): number {
  const number = value === undefined ? Number.NaN : Number(value);
  if (!Number.isInteger(number)) return fallback;
  return Math.min(max, Math.max(min, number));
}
