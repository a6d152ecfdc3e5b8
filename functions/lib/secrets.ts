import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { KMSClient } from '@aws-sdk/client-kms';

/**
 * Customer secrets (Twilio auth tokens, API key secrets) are encrypted with KMS, the company id as
 * encryption context, so a value copied to another company's item cannot be decrypted there. Locally
 * LOCAL_SECRETS_KEY (generated into .local/) stands in: AES-256-GCM with the company id as AAD.
 */

let kms: Promise<{ client: KMSClient; sdk: typeof import('@aws-sdk/client-kms') }> | undefined;
function loadKms() {
  kms ??= import('@aws-sdk/client-kms').then((sdk) => ({ client: new sdk.KMSClient({}), sdk }));
  return kms;
}

function localKey(): Buffer | undefined {
  const key = process.env.LOCAL_SECRETS_KEY;
  return key ? Buffer.from(key, 'base64') : undefined;
}

export async function encryptSecret(plaintext: string, companyId: string): Promise<string> {
  const key = localKey();
  if (key) {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(companyId));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['local', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join(
      ':',
    );
  }
  const { client, sdk } = await loadKms();
  const result = await client.send(
    new sdk.EncryptCommand({
      KeyId: process.env.CUSTOMER_SECRETS_KEY_ID,
      Plaintext: Buffer.from(plaintext, 'utf8'),
      EncryptionContext: { companyId },
    }),
  );
  return `kms:${Buffer.from(result.CiphertextBlob ?? new Uint8Array()).toString('base64')}`;
}

export async function decryptSecret(stored: string, companyId: string): Promise<string> {
  if (stored.startsWith('local:')) {
    const key = localKey();
    if (!key) throw new Error('LOCAL_SECRETS_KEY is not set; this secret was encrypted locally');
    const [, iv, tag, ciphertext] = stored.split(':');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv ?? '', 'base64url'));
    decipher.setAAD(Buffer.from(companyId));
    decipher.setAuthTag(Buffer.from(tag ?? '', 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext ?? '', 'base64url')), decipher.final()]).toString('utf8');
  }
  const { client, sdk } = await loadKms();
  const result = await client.send(
    new sdk.DecryptCommand({
      CiphertextBlob: Buffer.from(stored.slice('kms:'.length), 'base64'),
      EncryptionContext: { companyId },
    }),
  );
  return Buffer.from(result.Plaintext ?? new Uint8Array()).toString('utf8');
}
