import { afterEach, describe, expect, it } from 'vitest';
import {
  loginFailuresPerAddress,
  registrationsPerEmail,
  resendsPerAccount,
  sessionTokenFailuresPerAddress,
} from '../auth/limits';
import { invitationMailsPerCompany } from '../team/invitations';
import { windowSecondsOf } from './throttle';

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
