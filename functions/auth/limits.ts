import {
  LOGIN_DELAY_BASE_MS,
  LOGIN_DELAY_MAX_MS,
  LOGIN_FAILURE_LIMIT,
  LOGIN_FAILURE_WINDOW_SECONDS,
  PASSWORD_RESET_LIMIT,
  PASSWORD_RESET_WINDOW_SECONDS,
  REGISTRATION_LIMIT_PER_EMAIL,
  REGISTRATION_LIMIT_PER_SOURCE,
  REGISTRATION_WINDOW_SECONDS,
  RESEND_VERIFICATION_LIMIT,
  RESEND_VERIFICATION_WINDOW_SECONDS,
  SESSION_TOKEN_FAILURE_LIMIT,
  SESSION_TOKEN_FAILURE_WINDOW_SECONDS,
} from '../../shared/constants';
import type { Limit } from '../lib/throttle';

const minutes = (n: number) => `${n} minute${n === 1 ? '' : 's'}`;
const seconds = (n: number) => `${n} second${n === 1 ? '' : 's'}`;

const loginMessage = (wait: string) => `Too many failed sign-in attempts. Please try again in ${wait}.`;

/** Failed sign-ins from one address, whatever the account: a hard stop for guessing and spraying. */
export const loginFailuresPerAddress: Limit = {
  bucket: 'LOGIN_ADDRESS',
  limit: LOGIN_FAILURE_LIMIT,
  windowSeconds: LOGIN_FAILURE_WINDOW_SECONDS,
  scaledOnTestStacks: true,
  message: (m) => loginMessage(minutes(m)),
};

/** Failed sign-ins of one account from anywhere: past the limit they are slowed down, never locked. */
export const loginFailuresPerAccount: Limit = { ...loginFailuresPerAddress, bucket: 'LOGIN_ACCOUNT' };

/** The wait before the account's next attempt once `failures` (this one included) pass the limit. */
export function loginDelayMs(failures: number): number {
  const over = failures - LOGIN_FAILURE_LIMIT;
  return over <= 0 ? 0 : Math.min(LOGIN_DELAY_BASE_MS * 2 ** (over - 1), LOGIN_DELAY_MAX_MS);
}

export const loginDelayMessage = (waitMs: number) => loginMessage(seconds(Math.ceil(waitMs / 1000)));

const registrationMessage = (m: number) => `Too many registrations. Please try again in ${minutes(m)}.`;

export const registrationsPerEmail: Limit = {
  bucket: 'REGISTER_EMAIL',
  limit: REGISTRATION_LIMIT_PER_EMAIL,
  windowSeconds: REGISTRATION_WINDOW_SECONDS,
  scaledOnTestStacks: true,
  message: registrationMessage,
};

export const registrationsPerAddress: Limit = {
  ...registrationsPerEmail,
  bucket: 'REGISTER_ADDRESS',
  limit: REGISTRATION_LIMIT_PER_SOURCE,
};

export const resendsPerAccount: Limit = {
  bucket: 'RESEND_ACCOUNT',
  limit: RESEND_VERIFICATION_LIMIT,
  windowSeconds: RESEND_VERIFICATION_WINDOW_SECONDS,
  scaledOnTestStacks: true,
  message: (m) => `Too many verification emails requested. Please try again in ${minutes(m)}.`,
};

export const resendsPerAddress: Limit = { ...resendsPerAccount, bucket: 'RESEND_ADDRESS', limit: RESEND_VERIFICATION_LIMIT * 4 };

/**
 * Refresh and sign-out attempts from one address, counted before the token is looked up and taken
 * back when it was a live session's: junk tokens from one address stop there, in the handler, rather
 * than in a route throttle every user shares (docs/security.md: Sessions).
 */
export const sessionTokenFailuresPerAddress: Limit = {
  bucket: 'SESSION_TOKEN_ADDRESS',
  limit: SESSION_TOKEN_FAILURE_LIMIT,
  windowSeconds: SESSION_TOKEN_FAILURE_WINDOW_SECONDS,
  scaledOnTestStacks: true,
  message: (m) => `Too many attempts to renew or end a session from your network. Please try again in ${minutes(m)}.`,
};

/** Reset mails asked for one e-mail address: the same count whether or not it has an account. */
export const passwordResetsPerEmail: Limit = {
  bucket: 'PWRESET_EMAIL',
  limit: PASSWORD_RESET_LIMIT,
  windowSeconds: PASSWORD_RESET_WINDOW_SECONDS,
  scaledOnTestStacks: true,
  message: (m) => `Too many password reset emails requested. Please try again in ${minutes(m)}.`,
};

/** Reset mails asked for from one client, whatever the addresses: no mailing strangers in bulk. */
export const passwordResetsPerAddress: Limit = {
  ...passwordResetsPerEmail,
  bucket: 'PWRESET_ADDRESS',
  limit: PASSWORD_RESET_LIMIT * 4,
};

/**
 * Wrong current passwords given to a password change, per account: a stolen access token cannot
 * guess the password it would need to take the account over. Taken back when it was right.
 */
export const currentPasswordFailuresPerAccount: Limit = {
  ...loginFailuresPerAddress,
  bucket: 'CURRENT_PASSWORD_ACCOUNT',
  message: (m) => `Too many wrong passwords. Please try again in ${minutes(m)}.`,
};
