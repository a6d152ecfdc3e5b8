import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTwilioEmulator } from '../test-harness';

/**
 * Outbound MMS as Twilio sends it: MediaUrl parameters (up to 10) that Twilio fetches itself as the
 * message starts sending, with no credentials; a URL it cannot read fails the message with its code.
 */

const PHONE = '+14155550199';

interface Account {
  accountSid: string;
  authToken: string;
  numbers: { sid: string; phone_number: string; capabilities: { sms: boolean; mms: boolean } }[];
}

interface ViewedMedia {
  sid: string;
  content_type: string;
  source_url?: string;
  size?: number;
  content_url?: string;
}

interface ViewedMessage {
  sid: string;
  status: string;
  num_media: string;
  error_code: number | null;
  media: ViewedMedia[];
  media_urls: string[];
  callbacks: { messageStatus: string }[];
}

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 1)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 2)]);

/** A picture host: /a.jpg and /b.png answer their bytes, anything else 403 as a private bucket does. */
const pictures = createServer((req, res) => {
  const served = req.url === '/a.jpg' ? ['image/jpeg', JPEG] : req.url === '/b.png' ? ['image/png', PNG] : undefined;
  if (!served) {
    res.writeHead(403, { 'Content-Type': 'application/xml' }).end('<Error><Code>AccessDenied</Code></Error>');
    return;
  }
  res.writeHead(200, { 'Content-Type': served[0] as string }).end(served[1]);
});
let host = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => pictures.listen(0, '127.0.0.1', resolve));
  host = `http://127.0.0.1:${(pictures.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      pictures.close(() => resolve());
      pictures.closeAllConnections();
    }),
);

describe('Twilio emulator outbound MMS', () => {
  const harness = useTwilioEmulator(() => ({ messageStepMs: 10 }));
  const { call } = harness;

  const newAccount = async () => (await call<Account>('POST', '/_emulator/accounts')).body;
  const mmsNumber = (account: Account) => account.numbers.find((n) => n.capabilities.mms)?.phone_number ?? '';
  /** A Messages POST with MediaUrl repeated, as Twilio's clients send it. */
  async function send(account: Account, body: string, mediaUrls: string[]) {
    const form = new URLSearchParams({ From: mmsNumber(account), To: PHONE, StatusCallback: `${harness.receiver.base}/status` });
    if (body) form.append('Body', body);
    for (const url of mediaUrls) form.append('MediaUrl', url);
    const res = await fetch(`${harness.emulator.url}/2010-04-01/Accounts/${account.accountSid}/Messages.json`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: form.toString(),
    });
    return { status: res.status, body: (await res.json()) as { sid: string; num_media: string; code?: number } };
  }
  const viewed = async (account: Account, sid: string) =>
    (await call<{ messages: ViewedMessage[] }>('GET', `/_emulator/accounts/${account.accountSid}`)).body.messages.find(
      (m) => m.sid === sid,
    );

  it('fetches each MediaUrl as it sends, keeps the media in order, and lists them as its Media', async () => {
    const account = await newAccount();
    const created = await send(account, '', [`${host}/a.jpg`, `${host}/b.png`]);
    expect(created.status).toBe(201);
    expect(created.body.num_media).toBe('2');
    await expect.poll(async () => (await viewed(account, created.body.sid))?.status).toBe('delivered');
    const message = await viewed(account, created.body.sid);
    expect(message?.media.map((m) => [m.content_type, m.source_url, m.size])).toEqual([
      ['image/jpeg', `${host}/a.jpg`, JPEG.length],
      ['image/png', `${host}/b.png`, PNG.length],
    ]);
    // What the phone received is what the URLs answered, readable without credentials (the phone simulator's pictures).
    const first = await fetch(`${harness.emulator.url}${message?.media[0]?.content_url}`);
    expect([first.headers.get('content-type'), Buffer.from(await first.arrayBuffer())]).toEqual(['image/jpeg', JPEG]);
    const list = await call<{ media_list: { sid: string }[] }>(
      'GET',
      `/2010-04-01/Accounts/${account.accountSid}/Messages/${created.body.sid}/Media.json`,
      { auth: account },
    );
    expect(list.body.media_list.map((m) => m.sid)).toEqual(message?.media.map((m) => m.sid));
  });

  it('fails the message with 11200 when a MediaUrl answers other than 2xx, and posts the failure', async () => {
    const account = await newAccount();
    const created = await send(account, 'Here', [`${host}/a.jpg`, `${host}/private.jpg`]);
    expect(created.status).toBe(201);
    await expect.poll(async () => (await viewed(account, created.body.sid))?.status).toBe('failed');
    const message = await viewed(account, created.body.sid);
    expect([message?.error_code, message?.media]).toEqual([11200, []]);
    await expect
      .poll(() =>
        harness.receiver.requests.filter((r) => r.params.MessageSid === created.body.sid).map((r) => r.params.ErrorCode),
      )
      .toEqual(['11200']);
  });

  it('refuses more than 10 MediaUrls (21623) and one that is not a URL (21620) at creation', async () => {
    const account = await newAccount();
    const eleven = await send(
      account,
      'x',
      Array.from({ length: 11 }, () => `${host}/a.jpg`),
    );
    expect([eleven.status, eleven.body.code]).toEqual([400, 21623]);
    const malformed = await send(account, 'x', ['picture.jpg']);
    expect([malformed.status, malformed.body.code]).toEqual([400, 21620]);
  });
});
