import { errors, jwtVerify, SignJWT } from 'jose';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../shared/constants';
import { ROLES, type Role } from '../../shared/contract/auth';
import { unauthorized } from '../lib/app-error';
import { setting } from '../lib/config';

/** Who is calling, from the verified access token only: the company never comes from the request. */
export interface Principal {
  userId: string;
  companyId: string;
  isPlatformAdmin: boolean;
  /** The role at sign-in or the last refresh; routes that restrict by role read the stored user instead. */
  role: Role;
  /** The refresh-token family (sign-in session) this token was issued for. */
  sessionId: string;
}

const ISSUER = 'switchboard';
const AUDIENCE = 'switchboard-app';
const ALGORITHM = 'HS256';

let key: Promise<Uint8Array> | undefined;
function signingKey(): Promise<Uint8Array> {
  key ??= setting('JWT_SECRET').then((secret) => new TextEncoder().encode(secret));
  return key;
}

export async function issueAccessToken(principal: Principal): Promise<string> {
  return new SignJWT({ cid: principal.companyId, adm: principal.isPlatformAdmin, rol: principal.role, sid: principal.sessionId })
    .setProtectedHeader({ alg: ALGORITHM })
    .setSubject(principal.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
    .sign(await signingKey());
}

export async function verifyAccessToken(token: string): Promise<Principal> {
  try {
    const { payload } = await jwtVerify(token, await signingKey(), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: [ALGORITHM],
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
