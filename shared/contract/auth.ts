import * as z from 'zod/mini';
import { email, newPassword, opaqueToken, password, requiredText } from './fields';
import { httpContract } from './route';

export const ROLES = ['OWNER', 'ADMIN', 'AGENT'] as const;
export type Role = (typeof ROLES)[number];

export const UserSchema = z.object({
  id: z.string(),
  companyId: z.string(),
  name: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  role: z.enum(ROLES),
  avatarUrl: z.nullable(z.string()),
  lastActiveAt: z.nullable(z.string()),
  isPlatformAdmin: z.boolean(),
});
export type User = z.infer<typeof UserSchema>;

export const CompanySchema = z.object({ id: z.string(), name: z.string() });
export type Company = z.infer<typeof CompanySchema>;

export const TokensSchema = z.object({ accessToken: z.string(), refreshToken: z.string() });
export type Tokens = z.infer<typeof TokensSchema>;

const Session = z.object({ user: UserSchema, company: CompanySchema, tokens: TokensSchema });

export const register = httpContract({
  method: 'POST',
  path: '/api/v1/auth/register',
  auth: 'public',
  body: z.object({
    companyName: requiredText('Company name', 120),
    name: requiredText('Full name', 120),
    email,
    password: newPassword,
  }),
  response: z.object({ user: UserSchema, company: CompanySchema, emailSent: z.boolean() }),
});

/**
 * A POST with the token in the body (the first design had a GET with it in the query): a token in a URL ends up
 * in CloudFront's access logs and browser history. A GET now answers 405.
 */
export const verifyEmail = httpContract({
  method: 'POST',
  path: '/api/v1/auth/verify-email',
  auth: 'public',
  body: z.object({ token: opaqueToken('Verification token') }),
  response: Session,
});

export const resendVerification = httpContract({
  method: 'POST',
  path: '/api/v1/auth/resend-verification',
  auth: 'public',
  body: z.object({ email }),
  response: z.object({}),
});

export const login = httpContract({
  method: 'POST',
  path: '/api/v1/auth/login',
  auth: 'public',
  body: z.object({ email, password }),
  response: Session,
});

export const refresh = httpContract({
  method: 'POST',
  path: '/api/v1/auth/refresh',
  auth: 'public',
  body: z.object({ refreshToken: opaqueToken('Refresh token') }),
  response: z.object({ tokens: TokensSchema }),
});

export const me = httpContract({
  method: 'GET',
  path: '/api/v1/me',
  auth: 'user',
  response: z.object({ user: UserSchema, company: CompanySchema }),
});

/** Sign-out: ends the sign-in session the refresh token belongs to (all its tokens and sockets). */
export const logout = httpContract({
  method: 'POST',
  path: '/api/v1/auth/logout',
  auth: 'public',
  body: z.object({ refreshToken: opaqueToken('Refresh token') }),
  response: z.object({}),
});

/** Sign-out everywhere: ends every sign-in session of the calling user. */
export const logoutAll = httpContract({
  method: 'POST',
  path: '/api/v1/auth/logout-all',
  auth: 'user',
  response: z.object({}),
});
