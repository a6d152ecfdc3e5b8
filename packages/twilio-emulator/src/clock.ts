/**
 * Where the emulator's time comes from: the dates it writes on resources and webhooks (Twilio's
 * `date_created`, a callback's `Timestamp`, a call's duration) and the moment an Access Token is
 * checked at. A host or a test may give its own; the pace of calls and texts (a Pause, a Dial's
 * timeout, the carrier's steps) stays on real timers, which `callTimeScale`, `messageStepMs` and the
 * `advance` control already shorten.
 */
export interface Clock {
  /** Milliseconds since the epoch, as Date.now(). */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
