import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quietLogger } from './log';
import { PICTURE_BUCKET_NAME, pictureBucketCors, startPictureBucket } from './picture-bucket';
import { freePort } from './ports';

/**
 * The pictures bucket's stand-in refuses what AWS refuses (docs/local-stack.md: The pictures bucket): the
 * functions' real S3 client and presigner against s3rver behind its strict layer. Time is a parameter:
 * the stand-in's clock is this test's `now`.
 */

const WEB = 'http://localhost:5173';
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const dir = mkdtempSync(join(tmpdir(), 'pictures-'));
let now = Date.now();
let bucket: Awaited<ReturnType<typeof startPictureBucket>>;
let s3: S3Client;

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 7)]);

beforeAll(async () => {
  bucket = await startPictureBucket({
    port: await freePort(),
    directory: dir,
    secretOf: (id) => (id === credentials.accessKeyId ? credentials.secretAccessKey : undefined),
    cors: pictureBucketCors(WEB),
    log: quietLogger,
    now: () => now,
  });
  s3 = new S3Client({
    endpoint: bucket.endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
});

afterAll(async () => {
  await bucket?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const uploadUrl = (key: string, size: number, type = 'image/jpeg') =>
  getSignedUrl(s3, new PutObjectCommand({ Bucket: PICTURE_BUCKET_NAME, Key: key, ContentType: type, ContentLength: size }), {
    expiresIn: 300,
    signableHeaders: new Set(['content-type', 'content-length']),
  });

const errorCode = async (response: Response) => /<Code>([^<]+)<\/Code>/.exec(await response.text())?.[1];

describe('the pictures bucket stand-in', () => {
  it('takes exactly the announced bytes through a presigned PUT, and serves them to the functions signed', async () => {
    const url = await uploadUrl('unsent/c1/one', JPEG.length);
    expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    const put = await fetch(url, { method: 'PUT', headers: { 'Content-Type': 'image/jpeg' }, body: JPEG });
    expect(put.status).toBe(200);
    const head = await s3.send(new HeadObjectCommand({ Bucket: PICTURE_BUCKET_NAME, Key: 'unsent/c1/one' }));
    expect([head.ContentType, head.ContentLength]).toEqual(['image/jpeg', JPEG.length]);
    const read = await fetch(await getSignedUrl(s3, new GetObjectCommand({ Bucket: PICTURE_BUCKET_NAME, Key: 'unsent/c1/one' })));
    expect(Buffer.from(await read.arrayBuffer())).toEqual(JPEG);
  });

  it('refuses a body of another size or type than the URL was signed for', async () => {
    const url = await uploadUrl('unsent/c1/two', JPEG.length);
    const longer = await fetch(url, {
      method: 'PUT',
      headers: { 'Content-Type': 'image/jpeg' },
      body: Buffer.concat([JPEG, JPEG]),
    });
    expect([longer.status, await errorCode(longer)]).toEqual([403, 'SignatureDoesNotMatch']);
    const png = await fetch(url, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: JPEG });
    expect([png.status, await errorCode(png)]).toEqual([403, 'SignatureDoesNotMatch']);
    const html = await fetch(url, { method: 'PUT', headers: { 'Content-Type': 'text/html' }, body: JPEG });
    expect(html.status).toBe(403);
  });

  it('refuses a URL whose signature was changed, and one signed with another key', async () => {
    const url = new URL(await uploadUrl('unsent/c1/three', JPEG.length));
    const signature = url.searchParams.get('X-Amz-Signature') ?? '';
    url.searchParams.set('X-Amz-Signature', `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`);
    const tampered = await fetch(url, { method: 'PUT', headers: { 'Content-Type': 'image/jpeg' }, body: JPEG });
    expect([tampered.status, await errorCode(tampered)]).toEqual([403, 'SignatureDoesNotMatch']);
    const stranger = new S3Client({
      endpoint: bucket.endpoint,
      forcePathStyle: true,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'guessed' },
    });
    const other = await getSignedUrl(stranger, new GetObjectCommand({ Bucket: PICTURE_BUCKET_NAME, Key: 'unsent/c1/one' }));
    expect((await fetch(other)).status).toBe(403);
  });

  it('refuses a presigned URL once it has expired, on its own clock', async () => {
    // Signed at the stand-in's time: the file's clock stands where it started, the wall clock has moved on.
    const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: PICTURE_BUCKET_NAME, Key: 'unsent/c1/one' }), {
      expiresIn: 60,
      signingDate: new Date(now),
    });
    expect((await fetch(url)).status).toBe(200);
    now += 61_000;
    try {
      const late = await fetch(url);
      expect([late.status, await errorCode(late)]).toEqual([403, 'AccessDenied']);
    } finally {
      now -= 61_000;
    }
  });

  it('refuses unsigned reads and writes: the bucket is private', async () => {
    const read = await fetch(`${bucket.endpoint}/${PICTURE_BUCKET_NAME}/unsent/c1/one`);
    expect([read.status, await errorCode(read)]).toEqual([403, 'AccessDenied']);
    const list = await fetch(`${bucket.endpoint}/${PICTURE_BUCKET_NAME}?list-type=2`);
    expect(list.status).toBe(403);
    const write = await fetch(`${bucket.endpoint}/${PICTURE_BUCKET_NAME}/unsent/c1/mine`, { method: 'PUT', body: JPEG });
    expect(write.status).toBe(403);
  });

  it('refuses a bearer token beside a presigned URL, as S3 does', async () => {
    const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: PICTURE_BUCKET_NAME, Key: 'unsent/c1/one' }));
    const both = await fetch(url, { headers: { Authorization: 'Bearer token' } });
    expect([both.status, await errorCode(both)]).toEqual([400, 'InvalidArgument']);
  });

  it("lets the web app's origin, and no other, PUT and GET across origins", async () => {
    const preflight = (origin: string, method = 'PUT') =>
      fetch(`${bucket.endpoint}/${PICTURE_BUCKET_NAME}/unsent/c1/x`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'content-type' },
      });
    const allowed = await preflight(WEB);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(WEB);
    expect(allowed.headers.get('access-control-allow-methods')).toBe('PUT, GET');
    expect((await preflight('https://elsewhere.example')).status).toBe(403);
    expect((await preflight(WEB, 'DELETE')).status).toBe(403);

    const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: PICTURE_BUCKET_NAME, Key: 'unsent/c1/one' }));
    const fromWeb = await fetch(url, { headers: { Origin: WEB } });
    expect(fromWeb.headers.get('access-control-allow-origin')).toBe(WEB);
    const fromElsewhere = await fetch(url, { headers: { Origin: 'https://elsewhere.example' } });
    expect(fromElsewhere.headers.get('access-control-allow-origin')).toBeNull();
  });
});
