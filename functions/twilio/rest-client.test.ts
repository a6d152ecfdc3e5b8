import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TwilioApiError, TwilioContentTooLarge, twilioApiPath, twilioClient } from './rest-client';

/**
 * The client's content fetch against a real HTTP server standing in for Twilio's host: the
 * bytes and their type, a refusal past the limit — from Content-Length, or while reading a body sent
 * without one — and only paths of Twilio's API followed.
 */
const ACCOUNT = 'AC00000000000000000000000000000000';
const MEDIA = `/2010-04-01/Accounts/${ACCOUNT}/Messages/MM0/Media/ME0`;
let server: Server;
const seen: { path: string; authorization?: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
    if (req.url === MEDIA) {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '4' });
      res.end(Buffer.from([1, 2, 3, 4]));
    } else if (req.url === `${MEDIA}-large`) {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(2048) });
      res.end(Buffer.alloc(2048));
    } else if (req.url === `${MEDIA}-chunked`) {
      // No Content-Length: the limit is met while reading.
      res.writeHead(200, { 'content-type': 'image/png' });
      for (let i = 0; i < 8; i++) res.write(Buffer.alloc(512));
      res.end();
    } else {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 20404, message: 'The requested resource was not found' }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  vi.stubEnv('TWILIO_API_BASE_URL', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await new Promise((resolve) => server.close(resolve));
});

const client = () => twilioClient({ accountSid: ACCOUNT, username: ACCOUNT, password: 'token' });

describe('fetchContent', () => {
  it('answers the bytes and their type, sent with the account’s credentials', async () => {
    const content = await client().fetchContent(MEDIA, 1024);
    expect(content).toEqual({ bytes: Buffer.from([1, 2, 3, 4]), contentType: 'image/png' });
    expect(seen.at(-1)?.authorization).toBe(`Basic ${Buffer.from(`${ACCOUNT}:token`).toString('base64')}`);
  });

  it('refuses content over the limit from its Content-Length, and while reading one sent without', async () => {
    await expect(client().fetchContent(`${MEDIA}-large`, 1024)).rejects.toEqual(new TwilioContentTooLarge(2048));
    const chunked = client().fetchContent(`${MEDIA}-chunked`, 1024);
    await expect(chunked).rejects.toBeInstanceOf(TwilioContentTooLarge);
  });

  it('answers Twilio’s refusal as a TwilioApiError', async () => {
    const error = await client()
      .fetchContent(`${MEDIA}-gone`, 1024)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TwilioApiError);
    expect((error as TwilioApiError).isNotFound).toBe(true);
  });
});

describe('twilioApiPath', () => {
  it('keeps the path of a URL of Twilio’s API, whatever its host', () => {
    expect(twilioApiPath(`https://api.twilio.com${MEDIA}`)).toBe(MEDIA);
    expect(twilioApiPath(`http://127.0.0.1:4010${MEDIA}`)).toBe(MEDIA);
  });

  it('refuses anything else: another path, a relative or broken URL', () => {
    expect(twilioApiPath('https://evil.example/steal')).toBeUndefined();
    expect(twilioApiPath(`https://api.twilio.com/2010-04-01/Accounts/../../x`)).toBeUndefined();
    expect(twilioApiPath(MEDIA)).toBeUndefined();
    expect(twilioApiPath('not a url')).toBeUndefined();
  });
});
