import * as z from 'zod/mini';
import { CompanySchema, UserSchema } from './auth';
import { email, newPassword, newPasswordNamed, opaqueToken, requiredText } from './fields';
import { httpContract } from './route';

/**
 * Account self-service (docs/product.md: Account self-service): a forgotten password reset by e-mail,
 * the signed-in person's own name and password, and the company's name, which its owner changes.
 */

/** 202 with the same message whether or not the address has an account, so it tells a stranger nothing. */
export const forgotPassword = httpContract({
  method: 'POST',
  path: '/api/v1/auth/forgot-password',
  auth: 'public',
  body: z.object({ email }),
  response: z.object({}),
});

/** Spends the mailed link's token (in the body, never a URL) and ends every session of the account. */
export const resetPassword = httpContract({
  method: 'POST',
  path: '/api/v1/auth/reset-password',
  auth: 'public',
  body: z.object({ token: opaqueToken('Reset token'), password: newPassword }),
  response: z.object({}),
});

export const updateProfile = httpContract({
  method: 'PATCH',
  path: '/api/v1/me',
  auth: 'user',
  body: z.object({ name: requiredText('Full name', 120) }),
  response: z.object({ user: UserSchema }),
});

/** The current password proves it is the person; every other session of theirs ends. */
export const changePassword = httpContract({
  method: 'POST',
  path: '/api/v1/me/password',
  auth: 'user',
  body: z.object({
    currentPassword: z
      .string({
        error: (issue) => (issue.input === undefined ? 'Current password is required' : 'Current password must be text'),
      })
      .check(z.minLength(1, 'Current password is required'), z.maxLength(256, 'Current password must be at most 256 characters')),
    newPassword: newPasswordNamed('New password'),
  }),
  response: z.object({}),
});

export const renameCompany = httpContract({
  method: 'PATCH',
  path: '/api/v1/company',
  auth: 'user',
  roles: ['OWNER'],
  body: z.object({ name: requiredText('Company name', 120) }),
  response: z.object({ company: CompanySchema }),
});
