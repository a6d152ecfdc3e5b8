import { subscribe, unsubscribe } from 'node:diagnostics_channel';

interface UndiciRequest {
  origin: string | URL;
  method: string;
  path: string;
}

/**
 * Times the requests made with this thread's `fetch` that `kindOf` names (undefined: not timed), from
 * the request's creation until the last byte of its answer, through undici's diagnostics channels
 * (https://undici.nodejs.org/#/docs/api/DiagnosticsChannel) — so the Twilio emulator's webhooks, which
 * it posts with fetch in the soak's process (packages/twilio-emulator/src/webhooks.ts), are timed as Twilio
 * sees them without a change to the emulator. A request that ends without an answer (refused, or
 * given up at Twilio's 15 s) counts as failed, and its time until then is a sample too: leaving it out
 * would make a run whose webhooks time out look faster. Requests of other threads (the functions'
 * environments) are not seen.
 */
export function timeRequests(kindOf: (request: { origin: string; method: string; path: string }) => string | undefined) {
  const started = new WeakMap<UndiciRequest, { kind: string; at: number }>();
  const samples = new Map<string, number[]>();
  const failed = new Map<string, number>();

  const onCreate = (message: unknown) => {
    const { request } = message as { request: UndiciRequest };
    const kind = kindOf({ origin: String(request.origin), method: request.method, path: request.path });
    if (kind !== undefined) started.set(request, { kind, at: performance.now() });
  };
  /** The request's kind, once: its round trip counted. */
  const end = (message: unknown): string | undefined => {
    const { request } = message as { request: UndiciRequest };
    const start = started.get(request);
    if (!start) return undefined;
    started.delete(request);
    const list = samples.get(start.kind) ?? [];
    list.push(performance.now() - start.at);
    samples.set(start.kind, list);
    return start.kind;
  };
  const onComplete = (message: unknown) => {
    end(message);
  };
  const onError = (message: unknown) => {
    const kind = end(message);
    if (kind !== undefined) failed.set(kind, (failed.get(kind) ?? 0) + 1);
  };
  subscribe('undici:request:create', onCreate);
  subscribe('undici:request:trailers', onComplete);
  subscribe('undici:request:error', onError);

  return {
    /** Each kind's round trips, in ms (the failed ones' until they failed). */
    samples: (kind: string): readonly number[] => samples.get(kind) ?? [],
    failed: (kind: string): number => failed.get(kind) ?? 0,
    stop: () => {
      unsubscribe('undici:request:create', onCreate);
      unsubscribe('undici:request:trailers', onComplete);
      unsubscribe('undici:request:error', onError);
    },
  };
}
