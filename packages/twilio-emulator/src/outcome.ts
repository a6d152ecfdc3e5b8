/**
 * What the engines (voice, inbound texts) answer: what came of it, or why they would not act. The
 * control endpoints turn a refusal into its HTTP status, the signalling into its own error, so the
 * engines know nothing of HTTP.
 */
export type Refusal =
  /** No such account, number, application or call. */
  | 'unknown'
  /** It exists but cannot do this: a number without SMS or voice, no Voice URL, an illegal digit. */
  | 'unable'
  /** Not now: the leg no longer rings, the call has ended, nothing waits on time. */
  | 'conflict';

export type Outcome<T> = { ok: true; value: T } | { ok: false; refusal: Refusal; error: string };

export const done = <T>(value: T): Outcome<T> => ({ ok: true, value });

export const refused = <T = never>(refusal: Refusal, error: string): Outcome<T> => ({ ok: false, refusal, error });

/** The control endpoints' status for each refusal. */
export const REFUSAL_STATUS: Record<Refusal, 404 | 400 | 409> = { unknown: 404, unable: 400, conflict: 409 };
