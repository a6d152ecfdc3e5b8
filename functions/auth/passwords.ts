import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/** docs/architecture.md §3: scrypt N=2^17, r=8, p=1 (128 MiB of memory per hash, so maxmem is raised). */
const PRODUCTION_N = 2 ** 17;
/** The lowest cost a deployment may be configured with: scrypt's own interactive-login floor. */
const MINIMUM_N = 2 ** 14;
const KEY_LENGTH = 32;
const MAXMEM = 256 * 1024 * 1024;

/**
 * The cost of new hashes. Only the test stacks lower it (PASSWORD_SCRYPT_N), so their hundreds of
 * sign-ups fit the suite's time; deployments and `npm start` never set it. A hash names its own
 * parameters, so every hash verifies whatever cost made it.
 */
function params() {
  const configured = Number(process.env.PASSWORD_SCRYPT_N);
  const N = Number.isInteger(configured) && configured >= MINIMUM_N && configured <= PRODUCTION_N ? configured : PRODUCTION_N;
  return { N, r: 8, p: 1 };
}

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Encoded as `scrypt$N$r$p$salt$hash` so the parameters can be raised later without a migration. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = params();
  const hash = await derive(password, salt, { N, r, p, maxmem: MAXMEM });
  return ['scrypt', N, r, p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = encoded.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: MAXMEM,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Spends the same time as a real check, so a missing account cannot be told apart by timing. */
let dummy: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummy ??= hashPassword('not-a-real-password');
  await verifyPassword(password, await dummy);
}
