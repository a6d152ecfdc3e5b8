import { validateRequest } from 'twilio/lib/webhooks/webhooks';
import { describe, expect, it } from 'vitest';
import { useTwilioEmulator } from '../test-harness';
import type { ReceivedRequest } from '../test-receiver';

const PHONE = '+14155550199';

interface Account {
  accountSid: string;
  authToken: string;
  numbers: { sid: string; phone_number: string; capabilities: { sms: boolean; mms: boolean } }[];
}

interface Media {
  sid: string;
  account_sid: string;
  parent_sid: string;
  content_type: string;
  uri: string;
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('Twilio emulator inbound MMS', () => {
  const harness = useTwilioEmulator();
  const { call } = harness;

  const newAccount = async () => (await call<Account>('POST', '/_emulator/accounts')).body;
  const mmsNumber = (account: Account) => account.numbers.find((n) => n.capabilities.mms);
  const smsOnly = (account: Account) => account.numbers.find((n) => n.capabilities.sms && !n.capabilities.mms);
  async function textsTo(account: Account) {
    const number = mmsNumber(account);
    const res = await call('POST', `/2010-04-01/Accounts/${account.accountSid}/IncomingPhoneNumbers/${number?.sid}.json`, {
      auth: account,
      form: { SmsUrl: `${harness.receiver.base}/sms` },
    });
    expect(res.status).toBe(200);
    return number?.phone_number ?? '';
  }
  const text = (input: Record<string, unknown>) => call<{ sid: string }>('POST', '/_emulator/messages', { json: input });
  const signedWith = (authToken: string, request: ReceivedRequest) =>
    validateRequest(authToken, request.signature ?? '', request.url, request.params);
  /** The bytes and headers of a URL, with the given Authorization (or none). */
  async function download(url: string, authorization?: string) {
    const res = await fetch(url, { headers: authorization ? { authorization } : {} });
    return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
  }

  it('posts NumMedia, MediaUrlN and MediaContentTypeN as Twilio does, signed, and stores the media (MM message)', async () => {
    const account = await newAccount();
    const to = await textsTo(account);
    const res = await text({
      from: PHONE,
      to,
      body: 'The dent',
      media: [{ contentType: 'image/jpeg' }, { contentType: 'image/png' }],
    });
    expect(res.status).toBe(201);
    expect(res.body.sid).toMatch(/^MM[0-9a-f]{32}$/);
    const [request] = harness.receiver.requests;
    expect(request?.path).toBe('/sms');
    expect(request && signedWith(account.authToken, request)).toBe(true);
    const params = request?.params ?? {};
    expect(params).toMatchObject({ NumMedia: '2', Body: 'The dent', MessageSid: res.body.sid, MediaContentType0: 'image/jpeg' });
    expect(params.MediaContentType1).toBe('image/png');
    const base = `${harness.emulator.url}/2010-04-01/Accounts/${account.accountSid}/Messages/${res.body.sid}/Media/`;
    expect(params.MediaUrl0).toMatch(new RegExp(`^${base}ME[0-9a-f]{32}$`));
    expect(params.MediaUrl1).toMatch(new RegExp(`^${base}ME[0-9a-f]{32}$`));
    expect(params.MediaUrl0).not.toBe(params.MediaUrl1);
    expect(params.MediaUrl2).toBeUndefined();

    const message = await call<{ num_media: string }>(
      'GET',
      `/2010-04-01/Accounts/${account.accountSid}/Messages/${res.body.sid}.json`,
      { auth: account },
    );
    expect(message.body.num_media).toBe('2');
    const list = await call<{ media_list: Media[] }>(
      'GET',
      `/2010-04-01/Accounts/${account.accountSid}/Messages/${res.body.sid}/Media.json`,
      { auth: account },
    );
    expect(list.status).toBe(200);
    expect(list.body.media_list.map((m) => [m.content_type, `${harness.emulator.url}${m.uri}`])).toEqual([
      ['image/jpeg', `${params.MediaUrl0}.json`],
      ['image/png', `${params.MediaUrl1}.json`],
    ]);

    const jpeg = await download(params.MediaUrl0 ?? '', basic(account.accountSid, account.authToken));
    expect(jpeg.status).toBe(200);
    expect(jpeg.type).toBe('image/jpeg');
    expect([...jpeg.bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect([...jpeg.bytes.subarray(-2)]).toEqual([0xff, 0xd9]);
    const png = await download(params.MediaUrl1 ?? '', basic(account.accountSid, account.authToken));
    expect(png.type).toBe('image/png');
    expect(png.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.bytes.readUInt32BE(16)).toBe(16);
  });

  it('takes pictures without a body, and other content types with plausible bytes', async () => {
    const account = await newAccount();
    const to = await textsTo(account);
    const res = await text({ from: PHONE, to, media: [{ contentType: 'image/gif' }, { contentType: 'application/pdf' }] });
    expect(res.status).toBe(201);
    const params = harness.receiver.requests[0]?.params ?? {};
    expect(params).toMatchObject({
      Body: '',
      NumMedia: '2',
      MediaContentType0: 'image/gif',
      MediaContentType1: 'application/pdf',
    });
    const auth = basic(account.accountSid, account.authToken);
    const gif = await download(params.MediaUrl0 ?? '', auth);
    expect([gif.type, gif.bytes.subarray(0, 6).toString('latin1')]).toEqual(['image/gif', 'GIF89a']);
    const pdf = await download(params.MediaUrl1 ?? '', auth);
    expect([pdf.type, pdf.bytes.subarray(0, 5).toString('latin1')]).toEqual(['application/pdf', '%PDF-']);
  });

  it('serves media with an API key too, 401 without credentials or with wrong ones, 404 to another account', async () => {
    const account = await newAccount();
    const other = await newAccount();
    const to = await textsTo(account);
    const res = await text({ from: PHONE, to, body: 'pic', media: [{ contentType: 'image/png' }] });
    const url = harness.receiver.requests[0]?.params.MediaUrl0 ?? '';
    const key = await harness.apiKey(account);
    expect((await download(url, basic(key.sid, key.secret))).status).toBe(200);
    const anonymous = await download(url);
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.bytes.toString('utf8'))).toMatchObject({ code: 20003 });
    expect((await download(url, basic(account.accountSid, other.authToken))).status).toBe(401);
    expect((await download(`${url}.json`)).status).toBe(401);
    // Another account's credentials on its own path: the message is not there.
    const elsewhere = url.replace(account.accountSid, other.accountSid);
    expect((await download(elsewhere, basic(other.accountSid, other.authToken))).status).toBe(404);
    expect((await download(`${elsewhere}.json`, basic(other.accountSid, other.authToken))).status).toBe(404);
    const otherList = await call('GET', `/2010-04-01/Accounts/${other.accountSid}/Messages/${res.body.sid}/Media.json`, {
      auth: other,
    });
    expect(otherList.status).toBe(404);
    // Two pictures differ (a colour each).
    const again = await text({ from: PHONE, to, media: [{ contentType: 'image/png' }] });
    expect(again.status).toBe(201);
    const second = harness.receiver.requests[1]?.params.MediaUrl0 ?? '';
    const auth = basic(account.accountSid, account.authToken);
    expect((await download(second, auth)).bytes.equals((await download(url, auth)).bytes)).toBe(false);
  });

  it('refuses more than 10 media items, bad content types, an empty text, and media to a number without MMS', async () => {
    const account = await newAccount();
    const to = await textsTo(account);
    const eleven = Array.from({ length: 11 }, () => ({ contentType: 'image/png' }));
    expect((await text({ from: PHONE, to, media: eleven })).status).toBe(400);
    const ten = await text({ from: PHONE, to, media: eleven.slice(1) });
    expect(ten.status).toBe(201);
    expect(harness.receiver.requests[0]?.params.MediaUrl9).toBeDefined();
    expect((await text({ from: PHONE, to, media: [{ contentType: 'png' }] })).status).toBe(400);
    expect((await text({ from: PHONE, to, media: ['image/png'] })).status).toBe(400);
    expect((await text({ from: PHONE, to, media: {} })).status).toBe(400);
    expect((await text({ from: PHONE, to, media: [] })).status).toBe(400);
    const unable = await text({ from: PHONE, to: smsOnly(account)?.phone_number, media: [{ contentType: 'image/png' }] });
    expect(unable.status).toBe(400);
    expect(unable.body.error).toContain('MMS');
  });

  it('shows the media in the account view, and keeps NumMedia 0 on plain texts', async () => {
    const account = await newAccount();
    const to = await textsTo(account);
    await text({ from: PHONE, to, body: 'plain' });
    expect(harness.receiver.requests[0]?.params).toMatchObject({ NumMedia: '0' });
    expect(harness.receiver.requests[0]?.params.MediaUrl0).toBeUndefined();
    await text({ from: PHONE, to, media: [{ contentType: 'image/jpeg' }] });
    const view = await call<{ messages: { sid: string; num_media: string; media: Media[] }[] }>(
      'GET',
      `/_emulator/accounts/${account.accountSid}`,
    );
    expect(view.body.messages.map((m) => [m.sid.slice(0, 2), m.num_media, m.media.map((x) => x.content_type)])).toEqual([
      ['SM', '0', []],
      ['MM', '1', ['image/jpeg']],
    ]);
    const page = await (await fetch(`${harness.emulator.url}/`)).text();
    const [, picture] = view.body.messages;
    expect(page).toContain('Latest MMS media');
    expect(page).toContain(picture?.media[0]?.sid);
    expect(page).toContain(picture?.sid);
  });
});
