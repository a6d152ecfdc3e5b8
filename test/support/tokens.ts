import { decodeJwt, SignJWT } from 'jose';
import { stack } from './api';

/**
 * The access token with some claims changed and the rest (subject, expiry…) kept, signed with the
 * stack's key: a token the server itself issued at another moment, e.g. before the operator named
 * or stopped naming a platform administrator.
 */
export function withClaims(accessToken: string, claims: Record<string, unknown>): Promise<string> {
  const { iat, exp, ...kept } = decodeJwt(accessToken);
  return new SignJWT({ ...kept, ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(iat)
    .setExpirationTime(exp ?? '15m')
    .sign(new TextEncoder().encode(stack().env.JWT_SECRET));
}
