/**
 * A clock that can run ahead of the wall clock, for `npm run cost` (bench/cost.ts): it plays an hour of
 * the web app in a couple of minutes on the pages' fake clocks, and the server side must see the same
 * hour pass — access tokens expire, secrets and the authorizer's answers go stale, last-seen times age —
 * or what happens once per N minutes would happen once per run. The browser tests move it the same way,
 * past a timer instead of waiting for it (test/support/clock-control.ts). Only `Date` moves (timers keep
 * wall time). Nothing else shifts it: the offset is 0 and `Date` untouched otherwise (`npm start`, AWS).
 * The function environments (worker threads) follow this process's offset, sent with each invocation
 * (local/function-environments.ts, local/function-runtime.ts).
 */
const WallDate = Date;
let offsetMs = 0;
let installed = false;

/** The current offset of this thread's `Date` from the wall clock, in ms. */
export const clockOffsetMs = () => offsetMs;

/** Sets this thread's `Date` to run `ms` ahead of the wall clock (installs the shifted `Date` on first use). */
export function setClockOffset(ms: number): void {
  if (ms === offsetMs) return;
  offsetMs = ms;
  if (installed) return;
  installed = true;
  const now = () => WallDate.now() + offsetMs;
  // A proxy, not a subclass: `Date()` called without `new` must go on working (it answers a string).
  globalThis.Date = new Proxy(WallDate, {
    construct: (target, args, newTarget) => Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget),
    apply: () => new WallDate(now()).toString(),
    get: (target, property, receiver) => (property === 'now' ? now : Reflect.get(target, property, receiver)),
  });
}

/** Moves this thread's clock `ms` further ahead. */
export const advanceClock = (ms: number) => setClockOffset(offsetMs + ms);
