import { stack } from './api';
import type { StackClockReading } from './clock-control';

function controlUrl(): string {
  const url = stack().clock;
  if (!url) throw new Error("This project's stack has no clock control (the browser stack has: browser-stack.ts)");
  return url;
}

async function read(res: Response): Promise<StackClockReading> {
  if (!res.ok) throw new Error(`stack clock: ${res.status} ${await res.text()}`);
  return (await res.json()) as StackClockReading;
}

/** The browser stack's time (local/clock.ts): the wall clock plus what its tests moved it. */
export const stackClock = async () => read(await fetch(controlUrl()));

/**
 * Moves the browser stack's clock `ms` ahead (test/support/clock-control.ts): what the server side
 * reads as now — token expiry, throttle windows, call durations, the Twilio emulator's token checks.
 * Its timers keep wall time.
 */
export const advanceStackClock = async (ms: number) =>
  read(await fetch(`${controlUrl()}/advance`, { method: 'POST', body: JSON.stringify({ ms }) }));
