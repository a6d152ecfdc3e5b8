import type { S3Client } from '@aws-sdk/client-s3';
import { SENT_PREFIX, UNSENT_PREFIX } from './picture-bucket-keys';

/**
 * The private bucket of pictures sent in texts (docs/product.md: Pictures out; docs/security.md:
 * Pictures). Only the functions whose route declares the `pictures` capability reach this module, and
 * each gets only the operations it declares (`pictures` in functions/routes.ts, granted per prefix by
 * the CDK stack). Keys:
 * - `unsent/<companyId>/<uploadId>`: what a browser uploaded; the bucket's lifecycle rule removes it a
 *   day later, so an upload never sent costs nothing for long;
 * - `sent/<companyId>/<uploadId>`: its copy once a text carried it, kept with the company's messages.
 * Both begin with the company, so deleting a company deletes its pictures by prefix.
 */

const bucket = () => {
  const name = process.env.PICTURE_BUCKET;
  if (!name) throw new Error('Missing environment variable PICTURE_BUCKET');
  return name;
};

/**
 * The S3 client, its commands and the presigner, loaded on first use (as secrets.ts loads KMS): a
 * function that never touches a picture never loads them. Locally the stand-in
 * (local/picture-bucket.ts) by path (no bucket subdomains on localhost); in AWS the regional endpoint.
 * Checksums only where S3 requires them: a presigned PUT must not demand a checksum of bytes the
 * browser has not sent yet.
 */
let loaded:
  | Promise<{ s3: S3Client; sdk: typeof import('@aws-sdk/client-s3'); presign: typeof import('@aws-sdk/s3-request-presigner') }>
  | undefined;
function load() {
  loaded ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')]).then(([sdk, presign]) => ({
    sdk,
    presign,
    s3: new sdk.S3Client({
      ...(process.env.S3_ENDPOINT ? { endpoint: process.env.S3_ENDPOINT, forcePathStyle: true } : {}),
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    }),
  }));
  return loaded;
}

export { sentKey, unsentKey } from './picture-bucket-keys';

/**
 * A URL that takes one PUT of exactly `size` bytes of `contentType` at `key` for `seconds`: both
 * headers are signed, so S3 refuses another size or type (docs/product.md: Pictures out).
 */
export async function pictureUploadUrl(key: string, contentType: string, size: number, seconds: number): Promise<string> {
  const { s3, sdk, presign } = await load();
  const put = new sdk.PutObjectCommand({ Bucket: bucket(), Key: key, ContentType: contentType, ContentLength: size });
  return presign.getSignedUrl(s3, put, { expiresIn: seconds, signableHeaders: new Set(['content-type', 'content-length']) });
}

/**
 * What an upload holds (type, size and its first bytes), or undefined when there is none. Without
 * s3:ListBucket, S3 answers a missing key 403, not 404: either way there is no such picture.
 */
export async function inspectUpload(key: string): Promise<{ contentType: string; size: number; head: Buffer } | undefined> {
  const { s3, sdk } = await load();
  try {
    const answer = await s3.send(new sdk.GetObjectCommand({ Bucket: bucket(), Key: key, Range: 'bytes=0-15' }));
    const head = Buffer.from(await (answer.Body?.transformToByteArray() ?? Promise.resolve(new Uint8Array())));
    // ContentRange is `bytes 0-15/<size>`: the whole object's size.
    const size = Number(/\/(\d+)$/.exec(answer.ContentRange ?? '')?.[1] ?? answer.ContentLength ?? 0);
    return { contentType: answer.ContentType ?? '', size, head };
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** Keeps an upload as a sent picture (a server-side copy, so no byte passes through the function). */
export async function keepSentPicture(from: string, to: string): Promise<void> {
  const { s3, sdk } = await load();
  await s3.send(new sdk.CopyObjectCommand({ Bucket: bucket(), Key: to, CopySource: `${bucket()}/${from}` }));
}

/** A URL that reads one sent picture for `seconds`: what Twilio fetches, and where a reader is sent. */
export async function pictureReadUrl(key: string, seconds: number): Promise<string> {
  const { s3, sdk, presign } = await load();
  return presign.getSignedUrl(s3, new sdk.GetObjectCommand({ Bucket: bucket(), Key: key }), { expiresIn: seconds });
}

/** Deletes every picture of a company, sent or not (docs/product.md: Deleting a company); answers how many. */
export async function deleteCompanyPictures(companyId: string): Promise<number> {
  const { s3, sdk } = await load();
  let deleted = 0;
  for (const prefix of [UNSENT_PREFIX, SENT_PREFIX]) {
    let token: string | undefined;
    do {
      const page = await s3.send(
        new sdk.ListObjectsV2Command({ Bucket: bucket(), Prefix: `${prefix}/${companyId}/`, ContinuationToken: token }),
      );
      const objects = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (objects.length) {
        await s3.send(new sdk.DeleteObjectsCommand({ Bucket: bucket(), Delete: { Objects: objects, Quiet: true } }));
        deleted += objects.length;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
  return deleted;
}

function isMissing(error: unknown): boolean {
  const { name, $metadata } = (error ?? {}) as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NoSuchKey' || name === 'NotFound' || $metadata?.httpStatusCode === 404 || $metadata?.httpStatusCode === 403;
}
