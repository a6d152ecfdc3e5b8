import { decodeJwt, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import type { AccountRecord } from '../model';
import type { EmulatorStore } from '../store';

/**
 * Twilio's Access Token errors, as its Voice SDK reports them.
 * https://www.twilio.com/docs/api/errors/20101 … /20107, /20157
 */
export const TOKEN_ERRORS = {
  invalid: { code: 20101, message: 'Invalid Access Token' },
  header: { code: 20102, message: 'Invalid Access Token header' },
  issuer: { code: 20103, message: 'Invalid Access Token issuer/subject' },
  expired: { code: 20104, message: 'Access Token expired or expiration date invalid' },
  notYetValid: { code: 20105, message: 'Access Token not yet valid' },
  grants: { code: 20106, message: 'Invalid Access Token grants' },
  signature: { code: 20107, message: 'Invalid Access Token signature' },
  tooLong: { code: 20157, message: 'Expiration Time in the Access Token exceeds maximum time allowed' },
} as const;

/** Twilio refuses tokens that live longer than a day. */
const MAX_TTL_SECONDS = 24 * 60 * 60;

export interface VoiceGrant {
  incoming?: { allow?: boolean };
  outgoing?: { application_sid?: string; params?: Record<string, string> };
}

export interface TokenGrants {
  identity?: string;
  voice?: VoiceGrant;
  [grant: string]: unknown;
}

export type TokenCheck =
  | {
      valid: true;
      identity: string;
      grants: TokenGrants;
      accountSid: string;
      apiKeySid: string;
      /** The TwiML application outgoing calls use; null when the token may not call out. */
      applicationSid: string | null;
      expiresAt: string;
      error: null;
    }
  | { valid: false; identity: null; grants: null; error: { code: number; message: string } };

/**
 * Checks an Access Token as Twilio's edge does: a JWT with header `cty: twilio-fpa;v=1`, HS256-signed
 * with the secret of an API key (`iss`) of the account (`sub`), not expired, living at most a day, with
 * an identity and a Voice grant whose outgoing application belongs to that account.
 * https://www.twilio.com/docs/iam/access-tokens
 */
export async function verifyAccessToken(store: EmulatorStore, token: string): Promise<TokenCheck> {
  const refuse = (error: { code: number; message: string }, detail?: string): TokenCheck => ({
    valid: false,
    identity: null,
    grants: null,
    error: { code: error.code, message: detail ? `${error.message}: ${detail}` : error.message },
  });
  let header: ReturnType<typeof decodeProtectedHeader>;
  let claims: ReturnType<typeof decodeJwt>;
  try {
    header = decodeProtectedHeader(token);
    claims = decodeJwt(token);
  } catch {
    return refuse(TOKEN_ERRORS.invalid, 'not a JWT');
  }
  if (header.alg !== 'HS256') return refuse(TOKEN_ERRORS.header, `alg ${String(header.alg)} is not HS256`);
  if (header.cty !== 'twilio-fpa;v=1') return refuse(TOKEN_ERRORS.header, `cty ${String(header.cty)} is not twilio-fpa;v=1`);
  const account = typeof claims.sub === 'string' ? store.account(claims.sub) : undefined;
  const key = account?.keys.find((k) => k.sid === claims.iss);
  if (!account || !key) return refuse(TOKEN_ERRORS.issuer, 'no API key of that account issued it');
  if (typeof claims.exp !== 'number') return refuse(TOKEN_ERRORS.expired, 'no exp');
  try {
    await jwtVerify(token, new TextEncoder().encode(key.secret), {
      algorithms: ['HS256'],
      currentDate: new Date(store.clock.now()),
    });
  } catch (error) {
    if (error instanceof errors.JWTExpired) return refuse(TOKEN_ERRORS.expired);
    if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'nbf') return refuse(TOKEN_ERRORS.notYetValid);
    if (error instanceof errors.JWSSignatureVerificationFailed) return refuse(TOKEN_ERRORS.signature);
    return refuse(TOKEN_ERRORS.invalid, error instanceof Error ? error.message : String(error));
  }
  const issuedAt = typeof claims.iat === 'number' ? claims.iat : Math.floor(store.clock.now() / 1000);
  if (claims.exp - issuedAt > MAX_TTL_SECONDS) return refuse(TOKEN_ERRORS.tooLong);

  const grants = (claims.grants ?? {}) as TokenGrants;
  if (typeof grants.identity !== 'string' || grants.identity === '') return refuse(TOKEN_ERRORS.grants, 'no identity');
  const applicationSid = grants.voice?.outgoing?.application_sid ?? null;
  if (applicationSid !== null && !isApplicationOf(account, applicationSid))
    return refuse(TOKEN_ERRORS.grants, `${applicationSid} is not an application of account ${account.sid}`);
  return {
    valid: true,
    identity: grants.identity,
    grants,
    accountSid: account.sid,
    apiKeySid: key.sid,
    applicationSid,
    expiresAt: new Date(claims.exp * 1000).toISOString(),
    error: null,
  };
}

function isApplicationOf(account: AccountRecord, sid: string) {
  return account.applications.some((a) => a.sid === sid);
}
