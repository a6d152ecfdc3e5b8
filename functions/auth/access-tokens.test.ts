import { jwtVerify, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../shared/constants';
import { type StoredSecret, startSecretsExtension } from '../../test/support/secrets-extension';
import { SECRET_CACHE_TTL_SECONDS } from '../lib/config';
import { issueAccessToken, type Principal, verifyAccessToken } from './access-tokens';

/**
 * The signing key as AWS serves it, through a stand-in for the Parameters and Secrets extension
 * (test/support/secrets-extension.ts).
 */
const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:jwt';
const versions: StoredSecret = {
  current: { value: 'first-key-first-key-first-key-first-key', createdAt: new Date() },
};
let extension: Awaited<ReturnType<typeof startSecretsExtension>>;

beforeAll(async () => {
  extension = await startSecretsExtension();
  extension.secrets.set(SECRET_ARN, versions);
  for (const [name, value] of Object.entries(extension.env)) vi.stubEnv(name, value);
  vi.stubEnv('JWT_SECRET', '');
  vi.stubEnv('JWT_SECRET_SECRET_ARN', SECRET_ARN);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await extension.close();
});
afterEach(() => vi.useRealTimers());

const principal: Principal = { userId: 'u1', companyId: 'c1', isPlatformAdmin: false, role: 'OWNER', sessionId: 's1' };

function rotate(to: string, at = new Date()) {
  versions.previous = versions.current.value;
  versions.current = { value: to, createdAt: at };
}

describe('the access-token signing key', () => {
  it('is read again a cache time after a rotation: then new tokens are signed with the new key', async () => {
    const before = await issueAccessToken(principal);
    const rotatedAt = new Date();
    rotate('second-key-second-key-second-key-second', rotatedAt);
    const signedWith = (token: string, key: string) =>
      jwtVerify(token, new TextEncoder().encode(key)).then(
        () => true,
        () => false,
      );

    // A warm function signs with the key it read until its cache time is over (config.ts).
    vi.useFakeTimers({ now: rotatedAt.getTime() + (SECRET_CACHE_TTL_SECONDS - 1) * 1000, toFake: ['Date'] });
    expect(await signedWith(await issueAccessToken(principal), 'first-key-first-key-first-key-first-key')).toBe(true);
    vi.setSystemTime(rotatedAt.getTime() + SECRET_CACHE_TTL_SECONDS * 1000);
    const after = await issueAccessToken(principal);
    expect(await signedWith(after, 'second-key-second-key-second-key-second')).toBe(true);

    const signedWithNew = await new SignJWT({ cid: 'c1', rol: 'OWNER', sid: 's1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setIssuer('switchboard')
      .setAudience('switchboard-app')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('second-key-second-key-second-key-second'));
    // The new key signs; the token of before still verifies during the rotation.
    expect(await verifyAccessToken(signedWithNew)).toMatchObject({ userId: 'u1' });
    expect(await verifyAccessToken(before)).toMatchObject({ userId: 'u1', companyId: 'c1' });
  });

  it('keeps accepting the previous key for one access-token lifetime after a rotation, then not', async () => {
    const signedWithOld = await issueAccessToken(principal);
    const rotatedAt = new Date();
    rotate('third-key-third-key-third-key-third-key', rotatedAt);
    expect(await verifyAccessToken(signedWithOld)).toMatchObject({ userId: 'u1' });

    // A token is valid for ACCESS_TOKEN_TTL_SECONDS; past that (and the cache time) the old key is done.
    vi.useFakeTimers({
      now: rotatedAt.getTime() + (ACCESS_TOKEN_TTL_SECONDS + SECRET_CACHE_TTL_SECONDS + 1) * 1000,
      toFake: ['Date'],
    });
    const stillValid = await new SignJWT({ cid: 'c1', rol: 'OWNER', sid: 's1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setIssuer('switchboard')
      .setAudience('switchboard-app')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(versions.previous ?? ''));
    await expect(verifyAccessToken(stillValid)).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(await verifyAccessToken(await issueAccessToken(principal))).toMatchObject({ userId: 'u1' });
  });
});
