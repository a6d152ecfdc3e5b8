import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SECRET_CACHE_TTL_SECONDS, secretVersions } from './config';

/**
 * A stand-in for the Parameters and Secrets extension on its localhost port (it cannot run here): it
 * answers GetSecretValue as the real one relays Secrets Manager, AWSCURRENT with the value and its
 * creation date, 400 for an AWSPREVIOUS that does not exist (a secret never rotated), and counts the
 * requests per secret and stage.
 */
interface StoredSecret {
  current: { value: string; createdAt: Date };
  previous?: string;
  /** Answers 500 to the next this many requests, as the extension does when Secrets Manager fails. */
  failures?: number;
}
const secrets = new Map<string, StoredSecret>();
const requests = new Map<string, number>();
let extension: Server;

beforeAll(async () => {
  extension = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const arn = url.searchParams.get('secretId') ?? '';
    const stage = url.searchParams.get('versionStage') ?? 'AWSCURRENT';
    requests.set(`${arn} ${stage}`, (requests.get(`${arn} ${stage}`) ?? 0) + 1);
    const secret = secrets.get(arn);
    if (req.headers['x-aws-parameters-secrets-token'] !== 'session' || !secret) {
      res.writeHead(403).end();
      return;
    }
    if (secret.failures) {
      secret.failures--;
      res.writeHead(500).end('InternalServiceError');
      return;
    }
    const body =
      stage === 'AWSPREVIOUS'
        ? secret.previous && { SecretString: secret.previous }
        : { SecretString: secret.current.value, CreatedDate: secret.current.createdAt.getTime() / 1000 };
    if (!body) {
      res.writeHead(400).end('ResourceNotFoundException');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => extension.listen(0, '127.0.0.1', resolve));
  vi.stubEnv('PARAMETERS_SECRETS_EXTENSION_HTTP_PORT', String((extension.address() as AddressInfo).port));
  vi.stubEnv('AWS_SESSION_TOKEN', 'session');
});
afterAll(() => {
  vi.unstubAllEnvs();
  extension.close();
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

const calls = (stage: 'AWSCURRENT' | 'AWSPREVIOUS') => requests.get(`${arn} ${stage}`) ?? 0;
const later = (seconds: number) => vi.setSystemTime(start.getTime() + seconds * 1000);

describe('secrets read through the extension', () => {
  it('are asked for once a minute per stage, the missing previous version included, however many requests read them', async () => {
    for (let i = 0; i < 20; i++) {
      later((i * (SECRET_CACHE_TTL_SECONDS - 1)) / 20);
      expect(await secretVersions('ORIGIN_SECRET')).toEqual({
        current: 'first-value',
        previous: undefined,
        rotatedAt: secrets.get(arn)?.current.createdAt,
      });
    }
    expect([calls('AWSCURRENT'), calls('AWSPREVIOUS')]).toEqual([1, 1]);

    later(SECRET_CACHE_TTL_SECONDS);
    await secretVersions('ORIGIN_SECRET');
    await secretVersions('ORIGIN_SECRET');
    expect([calls('AWSCURRENT'), calls('AWSPREVIOUS')]).toEqual([2, 2]);
  });

  it('are read once for the requests that arrive together before the first answer', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => secretVersions('ORIGIN_SECRET')));
    expect(new Set(answers.map((answer) => answer.current))).toEqual(new Set(['first-value']));
    expect([calls('AWSCURRENT'), calls('AWSPREVIOUS')]).toEqual([1, 1]);
  });

  it('are asked for again after a failed read, not left failing for the minute', async () => {
    (secrets.get(arn) as StoredSecret).failures = 1;
    await expect(secretVersions('ORIGIN_SECRET')).rejects.toThrow(/answered 500/);
    expect((await secretVersions('ORIGIN_SECRET')).current).toBe('first-value');
    expect(await secretVersions('ORIGIN_SECRET')).toMatchObject({ current: 'first-value' });
    // The failed stage twice, then cached; the other stage's answer was kept.
    expect(calls('AWSCURRENT') + calls('AWSPREVIOUS')).toBe(3);
  });

  it('reach a warm container within the cache time of a rotation, the old value then previous', async () => {
    await secretVersions('ORIGIN_SECRET');
    const rotatedAt = new Date(start.getTime() + 10_000);
    secrets.set(arn, { current: { value: 'second-value', createdAt: rotatedAt }, previous: 'first-value' });
    later(SECRET_CACHE_TTL_SECONDS - 1);
    expect((await secretVersions('ORIGIN_SECRET')).current).toBe('first-value');
    later(SECRET_CACHE_TTL_SECONDS);
    expect(await secretVersions('ORIGIN_SECRET')).toEqual({
      current: 'second-value',
      previous: 'first-value',
      rotatedAt,
    });
  });
});
