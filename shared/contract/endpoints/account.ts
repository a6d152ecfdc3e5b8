// Written by shared/contract/write-endpoints.ts from the contracts: do not edit.
/** The HTTP contracts of account.ts without their schemas (route.ts, Endpoint): what the web app calls them by. */
import type * as contracts from '../account';
import type { Endpoint } from '../route';

export const changePassword: Endpoint<typeof contracts.changePassword> = {
  method: 'POST',
  path: '/api/v1/me/password',
  auth: 'user',
};

export const forgotPassword: Endpoint<typeof contracts.forgotPassword> = {
  method: 'POST',
  path: '/api/v1/auth/forgot-password',
  auth: 'public',
};

export const renameCompany: Endpoint<typeof contracts.renameCompany> = {
  method: 'PATCH',
  path: '/api/v1/company',
  auth: 'user',
  roles: ['OWNER'],
};

export const resetPassword: Endpoint<typeof contracts.resetPassword> = {
  method: 'POST',
  path: '/api/v1/auth/reset-password',
  auth: 'public',
};

export const updateProfile: Endpoint<typeof contracts.updateProfile> = {
  method: 'PATCH',
  path: '/api/v1/me',
  auth: 'user',
};
