import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type StoredSecret, startSecretsExtension } from '../../test/support/secrets-extension';
import { SECRET_CACHE_TTL_SECONDS, secretVersions } from './config';

let extension: Awaited<ReturnType<typeof startSecretsExtension>>;
let secrets: Map<string, StoredSecret>;

beforeAll(async () => {
  extension = await startSecretsExtension();
  secrets = extension.secrets;
  for (const [name, value] of Object.entries(extension.env)) vi.stubEnv(name, value);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await extension.close();
});

// Each test its own secret (the cache lives as long as the container, here the test file), and the
// clock in its hands: only Date is faked, so the stand-in's sockets run on real timers.
let arn: string;
let secretNumber = 0;
const start = new Date('2026-01-01T00:00:00Z');
beforeEach(() => {
  arn = `arn:aws:secretsmanager:us-east-1:123456789012:secret:origin-${++secretNumber}`;
  secrets.set(arn, { current: { value: 'first-value', createdAt: new Date(start.getTime() - 86_400_000) } });
  vi.stubEnv('ORIGIN_SECRET', '');
  vi.stubEnv('ORIGIN_SECRET_SECRET_ARN', arn);
  vi.useFakeTimers({ now: start, toFake: ['Date'] });
});
afterEach(() => vi.useRealTimers());

const calls = (stage: 'AWSCURRENT' | 'AWSPREVIOUS') => extension.requests(arn, stage);
const later = (seconds: number) => vi.setSystemTime(start.getTime() + seconds * 1000);

describe('secrets read through the extension', () => {
  it('are asked for once a minute, however many requests read them, and the previous version only when asked for', async () => {
    for (let i = 0; i < 20; i++) {
      later((i * (SECRET_CACHE_TTL_SECONDS - 1)) / 20);
      expect(await secretVersions('ORIGIN_SECRET')).toMatchObject({
        current: 'first-value',
        rotatedAt: secrets.get(arn)?.current.createdAt,
      });
    }
    expect([calls('AWSCURRENT'), calls('AWSPREVIOUS')]).toEqual([1, 0]);

    // A value that does not match asks for the previous one: missing (never rotated), and kept as missing.
    const { previous } = await secretVersions('ORIGIN_SECRET');
    expect(await previous()).toBeUndefined();
    expect(await (await secretVersions('ORIGIN_SECRET')).previous()).toBeUndefined();
    expect([calls('AWSCURRENT'), calls('AWSPREVIOUS')]).toEqual([1, 1]);

    later(SECRET_CACHE_TTL_SECONDS);
    await secretVersions('ORIGIN_SECRET');
    await secretVersions('ORIGIN_SECRET');
    expect([calls('AWSCURRENT'), calls('AWSPREVIOUS')]).toEqual([2, 1]);
  });

  it('are read once for the requests that arrive together before the first answer', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => secretVersions('ORIGIN_SECRET')));
    expect(new Set(answers.map((answer) => answer.current))).toEqual(new Set(['first-value']));
    await Promise.all(answers.map((answer) => answer.previous()));
    expect([calls('AWSCURRENT'), calls('AWSPREVIOUS')]).toEqual([1, 1]);
  });

  it('are asked for again after a failed read, not left failing for the minute', async () => {
    (secrets.get(arn) as StoredSecret).failures = 1;
    await expect(secretVersions('ORIGIN_SECRET')).rejects.toThrow(/answered 500/);
    expect((await secretVersions('ORIGIN_SECRET')).current).toBe('first-value');
    expect(await secretVersions('ORIGIN_SECRET')).toMatchObject({ current: 'first-value' });
    // The failed read, then one that was kept.
    expect(calls('AWSCURRENT')).toBe(2);
  });

  it('reach a warm container within the cache time of a rotation, the old value then previous', async () => {
    await secretVersions('ORIGIN_SECRET');
    const rotatedAt = new Date(start.getTime() + 10_000);
    secrets.set(arn, { current: { value: 'second-value', createdAt: rotatedAt }, previous: 'first-value' });
    later(SECRET_CACHE_TTL_SECONDS - 1);
    expect((await secretVersions('ORIGIN_SECRET')).current).toBe('first-value');
    later(SECRET_CACHE_TTL_SECONDS);
    const rotated = await secretVersions('ORIGIN_SECRET');
    expect(rotated).toMatchObject({ current: 'second-value', rotatedAt });
    expect(await rotated.previous()).toBe('first-value');
  });
});
