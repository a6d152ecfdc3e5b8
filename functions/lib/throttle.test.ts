import { afterEach, describe, expect, it } from 'vitest';
import {
  loginFailuresPerAddress,
  registrationsPerEmail,
  resendsPerAccount,
  sessionTokenFailuresPerAddress,
} from '../auth/limits';
import { invitationMailsPerCompany } from '../team/invitations';
import { slidingCount, slidingWait, tryAgainIn, windowSecondsOf } from './throttle';

describe('throttle windows', () => {
  const saved = process.env.LOCAL_THROTTLE_WINDOW_SCALE;
  afterEach(() => {
    if (saved === undefined) delete process.env.LOCAL_THROTTLE_WINDOW_SCALE;
    else process.env.LOCAL_THROTTLE_WINDOW_SCALE = saved;
  });

  it('are the product’s without the test stacks’ setting (as in AWS): a minute for refreshes, 15 minutes for sign-ins', () => {
    delete process.env.LOCAL_THROTTLE_WINDOW_SCALE;
    expect(windowSecondsOf(sessionTokenFailuresPerAddress)).toBe(60);
    expect(windowSecondsOf(loginFailuresPerAddress)).toBe(15 * 60);
    expect(windowSecondsOf(registrationsPerEmail)).toBe(15 * 60);
    expect(windowSecondsOf(resendsPerAccount)).toBe(15 * 60);
  });

  it('of sign-in and sessions are shortened by a test stack’s scale, never below 5 s; others keep theirs', () => {
    process.env.LOCAL_THROTTLE_WINDOW_SCALE = String(1 / 6);
    expect(windowSecondsOf(sessionTokenFailuresPerAddress)).toBe(10);
    expect(windowSecondsOf(loginFailuresPerAddress)).toBe(150);
    expect(windowSecondsOf(invitationMailsPerCompany)).toBe(invitationMailsPerCompany.windowSeconds);
    process.env.LOCAL_THROTTLE_WINDOW_SCALE = '0.001';
    expect(windowSecondsOf(sessionTokenFailuresPerAddress)).toBe(5);
  });

  it('are never lengthened, and a scale that is not a fraction below 1 is ignored', () => {
    for (const scale of ['2', '1', '0', '-0.5', 'half', '']) {
      process.env.LOCAL_THROTTLE_WINDOW_SCALE = scale;
      expect(windowSecondsOf(sessionTokenFailuresPerAddress), scale).toBe(60);
    }
  });
});

describe('sliding windows', () => {
  it('count the previous window by how much of it the sliding window still covers', () => {
    expect(slidingCount(60, 0, 0, 60)).toBe(60);
    expect(slidingCount(60, 10, 30, 60)).toBe(40);
    expect(slidingCount(60, 10, 60, 60)).toBe(10);
  });

  it('say how long until a weight fits: as the previous window slides out, else into the next one', () => {
    // Nothing counted: it fits now.
    expect(slidingWait({ previous: 0, current: 0 }, 11, 60, 5, 60)).toBe(0);
    // 55 in this window, 5 s in: 11 more fit once 6 of it have slid out, 6/55 of the next minute in.
    expect(slidingWait({ previous: 0, current: 55 }, 11, 60, 5, 60)).toBeCloseTo(55 + 60 * (6 / 55));
    // 60 last minute, 10 now, 10 s in: 11 more fit once the previous counts 39, 21 s in.
    expect(slidingWait({ previous: 60, current: 10 }, 11, 60, 10, 60)).toBeCloseTo(11);
    expect(slidingWait({ previous: 60, current: 10 }, 11, 60, 21, 60)).toBe(0);
  });

  it('say when to try again in seconds under a minute, else in minutes', () => {
    expect(tryAgainIn(0.2)).toBe('in 1 second');
    expect(tryAgainIn(42)).toBe('in 42 seconds');
    expect(tryAgainIn(60)).toBe('in 1 minute');
    expect(tryAgainIn(61)).toBe('in 2 minutes');
  });
});
