import {
  LOGIN_FAILURE_LIMIT,
  LOGIN_FAILURE_WINDOW_SECONDS,
  RESEND_VERIFICATION_LIMIT,
  RESEND_VERIFICATION_WINDOW_SECONDS,
} from '../../shared/constants';
import type { Limit } from '../lib/throttle';

const minutes = (n: number) => `${n} minute${n === 1 ? '' : 's'}`;

export const loginFailuresPerAccount: Limit = {
  bucket: 'LOGIN_ACCOUNT',
  limit: LOGIN_FAILURE_LIMIT,
  windowSeconds: LOGIN_FAILURE_WINDOW_SECONDS,
  message: (m) => `Too many failed sign-in attempts. Please try again in ${minutes(m)}.`,
};

export const loginFailuresPerAddress: Limit = { ...loginFailuresPerAccount, bucket: 'LOGIN_ADDRESS' };

export const resendsPerAccount: Limit = {
  bucket: 'RESEND_ACCOUNT',
  limit: RESEND_VERIFICATION_LIMIT,
  windowSeconds: RESEND_VERIFICATION_WINDOW_SECONDS,
  message: (m) => `Too many verification emails requested. Please try again in ${minutes(m)}.`,
};

export const resendsPerAddress: Limit = { ...resendsPerAccount, bucket: 'RESEND_ADDRESS', limit: RESEND_VERIFICATION_LIMIT * 4 };
