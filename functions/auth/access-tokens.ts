import { errors, jwtVerify, SignJWT } from 'jose';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../shared/constants';
import { ROLES, type Role } from '../../shared/contract/auth';
import { unauthorized } from '../lib/app-error';
import { SECRET_CACHE_TTL_SECONDS, secretVersions } from '../lib/config';

/** Who is calling, from the verified access token only: the company never comes from the request. */
export interface Principal {
  userId: string;
  companyId: string;
  /** As at sign-in or the last refresh in the token; defineHandler replaces both with the stored user's. */
  isPlatformAdmin: boolean;
  /** The role at sign-in or the last refresh; routes that restrict by role read the stored user instead. */
  role: Role;
  /** The refresh-token family (sign-in session) this token was issued for. */
  sessionId: string;
  /** When that session ends (epoch seconds), from the stored session defineHandler checked; not a claim. */
  sessionExpiresAt?: number;
}

const ISSUER = 'switchboard';
const AUDIENCE = 'switchboard-app';
const ALGORITHM = 'HS256';

const encode = (secret: string) => new TextEncoder().encode(secret);

/**
 * The signing key, read through config.ts's cache, so a rotated secret is used within
 * SECRET_CACHE_TTL_SECONDS. The previous key still verifies for one access-token lifetime after the
 * rotation (plus that cache time, during which a warm function may still have signed with it); it is
 * read only for a token the current key does not verify, during that time.
 */
async function keys(): Promise<{ current: Uint8Array; previous: () => Promise<Uint8Array | undefined> }> {
  const { current, previous, rotatedAt } = await secretVersions('JWT_SECRET');
  const graceMs = (ACCESS_TOKEN_TTL_SECONDS + SECRET_CACHE_TTL_SECONDS) * 1000;
  const inGrace = rotatedAt !== undefined && Date.now() - rotatedAt.getTime() < graceMs;
  return {
    current: encode(current),
    previous: async () => {
      const value = inGrace ? await previous() : undefined;
      return value ? encode(value) : undefined;
    },
  };
}

export async function issueAccessToken(principal: Principal): Promise<string> {
  return new SignJWT({ cid: principal.companyId, adm: principal.isPlatformAdmin, rol: principal.role, sid: principal.sessionId })
    .setProtectedHeader({ alg: ALGORITHM })
    .setSubject(principal.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
    .sign((await keys()).current);
}

export async function verifyAccessToken(token: string): Promise<Principal> {
  try {
    const { current, previous } = await keys();
    const options = { issuer: ISSUER, audience: AUDIENCE, algorithms: [ALGORITHM] };
    const { payload } = await jwtVerify(token, current, options).catch(async (error) => {
      const key = error instanceof errors.JWSSignatureVerificationFailed ? await previous() : undefined;
      if (key) return jwtVerify(token, key, options);
      throw error;
    });
    const { sub, cid, rol, sid } = payload;
    if (typeof sub !== 'string' || typeof cid !== 'string' || typeof sid !== 'string' || !ROLES.includes(rol as Role)) {
      throw unauthorized('Invalid access token');
    }
    return { userId: sub, companyId: cid, isPlatformAdmin: payload.adm === true, role: rol as Role, sessionId: sid };
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw unauthorized('Access token expired', 'TOKEN_EXPIRED');
    if (error instanceof errors.JOSEError) throw unauthorized('Invalid access token');
    throw error;
  }
}
