// Written by shared/contract/write-endpoints.ts from the contracts: do not edit.
/** The HTTP contracts of auth.ts without their schemas (route.ts, Endpoint): what the web app calls them by. */
import type * as contracts from '../auth';
import type { Endpoint } from '../route';

export const login: Endpoint<typeof contracts.login> = {
  method: 'POST',
  path: '/api/v1/auth/login',
  auth: 'public',
};

export const logout: Endpoint<typeof contracts.logout> = {
  method: 'POST',
  path: '/api/v1/auth/logout',
  auth: 'public',
};

export const logoutAll: Endpoint<typeof contracts.logoutAll> = {
  method: 'POST',
  path: '/api/v1/auth/logout-all',
  auth: 'user',
};

export const me: Endpoint<typeof contracts.me> = {
  method: 'GET',
  path: '/api/v1/me',
  auth: 'user',
};

export const refresh: Endpoint<typeof contracts.refresh> = {
  method: 'POST',
  path: '/api/v1/auth/refresh',
  auth: 'public',
};

export const register: Endpoint<typeof contracts.register> = {
  method: 'POST',
  path: '/api/v1/auth/register',
  auth: 'public',
};

export const resendVerification: Endpoint<typeof contracts.resendVerification> = {
  method: 'POST',
  path: '/api/v1/auth/resend-verification',
  auth: 'public',
};

export const verifyEmail: Endpoint<typeof contracts.verifyEmail> = {
  method: 'POST',
  path: '/api/v1/auth/verify-email',
  auth: 'public',
};
