import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords';

describe('password hashing', () => {
  it('stores scrypt N=2^17, r=8, p=1 with a random salt, and verifies only the right password', async () => {
    const encoded = await hashPassword('correct horse');
    expect(encoded).toMatch(/^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await hashPassword('correct horse')).not.toBe(encoded);
    expect(await verifyPassword('correct horse', encoded)).toBe(true);
    expect(await verifyPassword('correct horsE', encoded)).toBe(false);
    expect(await verifyPassword('correct horse', 'md5$abc')).toBe(false);
  });
});

describe('a lowered cost (the test stacks only)', () => {
  const saved = process.env.PASSWORD_SCRYPT_N;
  afterEach(() => {
    if (saved === undefined) delete process.env.PASSWORD_SCRYPT_N;
    else process.env.PASSWORD_SCRYPT_N = saved;
  });

  it('makes hashes of that cost, which verify as any other', async () => {
    process.env.PASSWORD_SCRYPT_N = String(2 ** 14);
    const encoded = await hashPassword('correct horse');
    expect(encoded).toMatch(/^scrypt\$16384\$8\$1\$/);
    delete process.env.PASSWORD_SCRYPT_N;
    expect(await verifyPassword('correct horse', encoded)).toBe(true);
  });

  it('never goes below scrypt’s interactive floor of 2^14', async () => {
    process.env.PASSWORD_SCRYPT_N = '1024';
    expect(await hashPassword('correct horse')).toMatch(/^scrypt\$131072\$/);
  });
});
