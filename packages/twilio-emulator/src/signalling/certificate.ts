import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface TlsCertificate {
  key: string;
  cert: string;
  /**
   * Where the certificate is kept, for the start banner and the one step a person takes
   * (docs/local-stack.md: Trusting the signalling certificate).
   */
  certFile: string;
}

/** A year: long enough not to bother anyone, short enough that browsers accept it. */
const VALID_DAYS = 365;
/** A certificate this close to its end is replaced at start. */
const RENEW_BEFORE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The self-signed certificate of the emulator's TLS port (the Voice SDK connects with `wss://` only),
 * for localhost and 127.0.0.1. Generated in JavaScript on first start and kept under `dir`, so a
 * person trusts it once and keeps trusting it across restarts; replaced when it nears its end.
 */
export async function localCertificate(dir: string): Promise<TlsCertificate> {
  const keyFile = join(dir, 'localhost-key.pem');
  const certFile = join(dir, 'localhost-cert.pem');
  if (existsSync(keyFile) && existsSync(certFile)) {
    const stored = { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
    if (Date.parse(new X509Certificate(stored.cert).validTo) - Date.now() > RENEW_BEFORE_MS) return stored;
  }
  const now = new Date();
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - 60_000),
    notAfterDate: new Date(now.getTime() + VALID_DAYS * 24 * 60 * 60 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  mkdirSync(dir, { recursive: true });
  writeFileSync(keyFile, pems.private, { mode: 0o600 });
  writeFileSync(certFile, pems.cert);
  return { key: pems.private, cert: pems.cert, certFile };
}
