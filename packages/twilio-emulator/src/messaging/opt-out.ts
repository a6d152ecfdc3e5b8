import type { AccountRecord } from '../model';

/**
 * Twilio's default opt-out and opt-in keywords for long codes. Twilio acts on them only when the whole
 * body, trimmed, is the keyword, in any case ("stop" does, "please stop" does not); the message itself
 * still reaches the webhook. https://help.twilio.com/articles/223134027 (Twilio support for opt-out keywords)
 * and https://www.twilio.com/docs/messaging/tutorials/advanced-opt-out
 */
const OPT_OUT = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']);
const OPT_IN = new Set(['START', 'UNSTOP']);

export type OptOutKeyword = 'opt-out' | 'opt-in' | undefined;

export function optOutKeyword(body: string): OptOutKeyword {
  const word = body.trim().toUpperCase();
  if (OPT_OUT.has(word)) return 'opt-out';
  if (OPT_IN.has(word)) return 'opt-in';
  return undefined;
}

/** Applies an inbound text to the opt-out list of (account number, phone). Call within a store change. */
export function applyOptOut(account: AccountRecord, number: string, phone: string, body: string): void {
  const keyword = optOutKeyword(body);
  if (!keyword) return;
  account.optOuts = account.optOuts.filter((o) => !(o.number === number && o.phone === phone));
  if (keyword === 'opt-out') account.optOuts.push({ number, phone });
}

export function isOptedOut(account: AccountRecord, number: string, phone: string): boolean {
  return account.optOuts.some((o) => o.number === number && o.phone === phone);
}
