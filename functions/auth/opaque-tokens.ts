import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** 128-bit random tokens (verification, refresh); only their SHA-256 is ever stored. */
export function newOpaqueToken(): { token: string; hash: string } {
  const token = randomBytes(16).toString('base64url');
  return { token, hash: hashOpaqueToken(token) };
}

export function hashOpaqueToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export function newId(): string {
  return randomUUID();
}
