import { errors, jwtVerify, SignJWT } from 'jose';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../shared/constants';
import { unauthorized } from '../lib/app-error';
import { setting } from '../lib/config';

/** Who is calling, from the verified access token only: the company never comes from the request. */
export interface Principal {
  userId: string;
  companyId: string;
  isPlatformAdmin: boolean;
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
  return new SignJWT({ cid: principal.companyId, adm: principal.isPlatformAdmin })
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
    if (typeof payload.sub !== 'string' || typeof payload.cid !== 'string') throw unauthorized('Invalid access token');
    return { userId: payload.sub, companyId: payload.cid, isPlatformAdmin: payload.adm === true };
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw unauthorized('Access token expired', 'TOKEN_EXPIRED');
    if (error instanceof errors.JOSEError) throw unauthorized('Invalid access token');
    throw error;
  }
}
