import { beforeAll, describe, expect, it } from 'vitest';
import type { PictureType } from '../../shared/constants';
import { pictureBlockedMessage } from '../../shared/pictures';
import { type Account, callRoute, unchecked } from '../support/api';
import { endpoints } from '../support/endpoints';
import { conversationWith, newPhone, readConversation, type SmsLine, smsLine, socketsClosedAfterEach } from '../support/sms';
import { type EmulatorMessage, emulatorMessages, setTwilioFaults } from '../support/twilio';

/**
 * Pictures out (docs/product.md: Pictures out), through the real handlers, the pictures bucket's
 * stand-in (a real S3 server, strict as AWS: local/picture-bucket.ts) and the Twilio emulator, which
 * fetches each MediaUrl as it sends, as Twilio does.
 */
const listen = socketsClosedAfterEach();

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('a JPEG of the dent'.repeat(20))]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('a PNG'.repeat(40))]);
const UK_PHONE = '+447911123456';

let line: SmsLine;
let other: SmsLine;
beforeAll(async () => {
  [line, other] = await Promise.all([smsLine(), smsLine()]);
});

const token = (account: Account) => account.tokens.accessToken;

/** What the composer does: asks for an upload URL, then PUTs the bytes there with the headers it was given. */
async function upload(account: Account, bytes: Buffer, contentType: PictureType, announced = bytes.length) {
  const asked = await callRoute(endpoints.createPictureUpload, { token: token(account), body: { contentType, size: announced } });
  expect(asked.status).toBe(201);
  const { upload } = asked.body.data;
  const put = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: new Uint8Array(bytes) });
  return { id: upload.id, url: upload.url, headers: upload.headers, expiresAt: upload.expiresAt, put: put.status };
}

const start = (account: Account, body: { to: string; channelId: string; body: string; pictureIds?: string[] }) =>
  callRoute(endpoints.startConversation, { token: token(account), body });

const send = (account: Account, conversationId: string, body: string, pictureIds: string[]) =>
  callRoute(endpoints.sendMessage, { token: token(account), params: { id: conversationId }, body: { body, pictureIds } });

/** The emulator's record of what Twilio was asked to send to `to`, once it has fetched its media (or failed). */
async function receivedBy(to: string, count = 1): Promise<(EmulatorMessage & { media_urls: string[] })[]> {
  let found: (EmulatorMessage & { media_urls: string[] })[] = [];
  await expect
    .poll(async () => {
      const messages = (await emulatorMessages(line.twilio.accountSid)) as (EmulatorMessage & { media_urls: string[] })[];
      found = messages.filter((m) => m.direction === 'outbound-api' && m.to === to);
      return found.length >= count && found.every((m) => m.status !== 'queued' && m.status !== 'accepted');
    })
    .toBe(true);
  return found;
}

const bytesOf = async (url: string, init?: RequestInit) => {
  const res = await fetch(url, init);
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
};

describe('pictures out', () => {
  it('sends an MMS of two pictures: Twilio gets two MediaUrls that fetch the uploaded bytes, and nobody else can', async () => {
    expect(line.channel.capabilities.mms).toBe(true);
    const [photo, plan] = await Promise.all([upload(line.account, JPEG, 'image/jpeg'), upload(line.account, PNG, 'image/png')]);
    expect([photo.put, plan.put]).toEqual([200, 200]);
    expect(photo.headers).toEqual({ 'Content-Type': 'image/jpeg' });
    // The URL is good for PICTURE_URL_SECONDS, signed for that size and type.
    expect(new URL(photo.url).searchParams.get('X-Amz-Expires')).toBe('300');
    expect(new URL(photo.url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');

    const phone = newPhone();
    const started = await start(line.account, {
      to: phone,
      channelId: line.channel.id,
      body: 'The dent, and the plan',
      pictureIds: [photo.id, plan.id],
    });
    expect(started.status).toBe(201);
    const { conversation } = started.body.data;
    expect(conversation.lastMessage).toEqual({
      direction: 'OUTBOUND',
      body: 'The dent, and the plan',
      mediaCount: 2,
      mediaKinds: ['photo', 'photo'],
      sentBy: { id: line.account.user.id, name: line.account.user.name },
    });

    const [sent] = await receivedBy(phone);
    expect(sent?.media_urls).toHaveLength(2);
    expect(sent?.body).toBe('The dent, and the plan');
    // The emulator fetched both as it sent (it got what was uploaded, in order) …
    expect(sent?.media.map((m) => m.content_type)).toEqual(['image/jpeg', 'image/png']);
    expect(sent?.status).not.toBe('failed');
    // … and so can Twilio for a while: each URL reads its picture, with no credentials.
    const [first, second] = await Promise.all((sent?.media_urls ?? []).map((url) => bytesOf(url)));
    expect([first?.status, first?.bytes]).toEqual([200, JPEG]);
    expect([second?.status, second?.bytes]).toEqual([200, PNG]);
    // Without its signature the same object is refused: the bucket is private.
    const bare = new URL(sent?.media_urls[0] ?? '');
    expect((await bytesOf(`${bare.origin}${bare.pathname}`)).status).toBe(403);

    // The thread shows the sent pictures as it shows received ones; reading one sends the reader to a short-lived URL.
    const thread = await readConversation(line.account, conversation.id);
    const [message] = thread.body.data.conversation.messages;
    expect(message?.media.map((m) => m.contentType)).toEqual(['image/jpeg', 'image/png']);
    const media = await callRoute(endpoints.messageMedia, {
      token: token(line.account),
      params: { id: conversation.id, messageId: message?.id ?? '', index: '1' },
    });
    expect(media.status).toBe(302);
    expect(media.headers.get('cache-control')).toBe('private, no-store');
    expect((await bytesOf(String(media.headers.get('location')))).bytes).toEqual(PNG);

    // Another company: neither its reading nor its sending reaches these pictures.
    const theirs = await callRoute(endpoints.messageMedia, {
      token: token(other.account),
      params: { id: conversation.id, messageId: message?.id ?? '', index: '0' },
    });
    expect(theirs.status).toBe(404);
    const stolen = await start(other.account, {
      to: newPhone(),
      channelId: other.channel.id,
      body: 'Look',
      pictureIds: [photo.id],
    });
    expect([stolen.status, stolen.body.error?.message]).toEqual([404, 'Picture not found']);
  });

  it('takes pictures alone (no words) in a reply, and tells the list there is a photo', async () => {
    const socket = await listen(line);
    const phone = newPhone();
    const conversationId = await conversationWith(line, socket, phone, 'Send me the picture?');
    const photo = await upload(line.account, JPEG, 'image/jpeg');
    const reply = await send(line.account, conversationId, '', [photo.id]);
    expect(reply.status).toBe(201);
    expect(reply.body.data.message).toMatchObject({ body: '', media: [{ contentType: 'image/jpeg' }] });
    const [sent] = await receivedBy(phone);
    expect([sent?.body, sent?.media.length]).toEqual(['', 1]);
    const thread = await readConversation(line.account, conversationId);
    expect(thread.body.data.conversation.lastMessage).toEqual({
      direction: 'OUTBOUND',
      body: '',
      mediaCount: 1,
      mediaKinds: ['photo'],
      sentBy: { id: line.account.user.id, name: line.account.user.name },
    });
  });

  it('refuses an upload of another size or type than announced, and a file that is not what it was announced as', async () => {
    const longer = await upload(line.account, Buffer.concat([JPEG, JPEG]), 'image/jpeg', JPEG.length);
    expect(longer.put).toBe(403);
    const asked = await callRoute(endpoints.createPictureUpload, {
      token: token(line.account),
      body: { contentType: 'image/png', size: JPEG.length },
    });
    const { upload: png } = asked.body.data;
    const retyped = await fetch(png.url, { method: 'PUT', headers: { 'Content-Type': 'image/jpeg' }, body: JPEG });
    expect(retyped.status).toBe(403);
    // Nothing was stored under either: sending them finds no picture.
    const phone = newPhone();
    const none = await start(line.account, { to: phone, channelId: line.channel.id, body: 'x', pictureIds: [longer.id] });
    expect([none.status, none.body.error?.message]).toEqual([404, 'Picture not found']);

    // Announced as a PNG, uploaded as announced, but JPEG bytes: 400 with a sentence, nothing sent.
    const disguised = await fetch(png.url, { method: 'PUT', headers: png.headers, body: JPEG });
    expect(disguised.status).toBe(200);
    const refused = await start(line.account, { to: phone, channelId: line.channel.id, body: 'x', pictureIds: [png.id] });
    expect([refused.status, refused.body.error?.message]).toEqual([400, 'The picture is not the PNG image it was uploaded as.']);
    // Nothing was created: this number's first conversation starts now.
    expect((await start(line.account, { to: phone, channelId: line.channel.id, body: 'Hello' })).status).toBe(201);
  });

  it('refuses pictures larger than 5 MB together, Twilio’s limit for one MMS, storing and sending nothing', async () => {
    // Two JPEGs of 3 MB: each may go, together they may not.
    const big = Buffer.concat([JPEG, Buffer.alloc(3 * 1024 * 1024)]);
    const [first, second] = await Promise.all([upload(line.account, big, 'image/jpeg'), upload(line.account, big, 'image/jpeg')]);
    const phone = newPhone();
    const refused = await start(line.account, {
      to: phone,
      channelId: line.channel.id,
      body: 'x',
      pictureIds: [first.id, second.id],
    });
    expect([refused.status, refused.body.error?.message]).toEqual([
      400,
      "The pictures are larger than 5 MB together, Twilio's limit for one text. Send some in another text.",
    ]);
    expect((await start(line.account, { to: phone, channelId: line.channel.id, body: 'x', pictureIds: [first.id] })).status).toBe(
      201,
    );
  });

  it('refuses pictures to a number outside the US and Canada (409, the composer’s sentence), storing and sending nothing', async () => {
    const photo = await upload(line.account, JPEG, 'image/jpeg');
    const refused = await start(line.account, { to: UK_PHONE, channelId: line.channel.id, body: 'Hi', pictureIds: [photo.id] });
    expect(refused.status).toBe(409);
    expect(refused.body.error?.message).toBe(pictureBlockedMessage('COUNTRY_WITHOUT_MMS', UK_PHONE));
    expect((await emulatorMessages(line.twilio.accountSid)).filter((m) => m.to === UK_PHONE)).toEqual([]);
    // Words alone go; the thread then says why pictures cannot.
    const words = await start(line.account, { to: UK_PHONE, channelId: line.channel.id, body: 'Hi' });
    expect(words.status).toBe(201);
    const thread = await readConversation(line.account, words.body.data.conversation.id);
    expect(thread.body.data.conversation.picturesBlockedBy).toBe('COUNTRY_WITHOUT_MMS');
    const us = await readConversation(
      line.account,
      (await start(line.account, { to: newPhone(), channelId: line.channel.id, body: 'Hi' })).body.data.conversation.id,
    );
    expect(us.body.data.conversation.picturesBlockedBy).toBeNull();
    const numbers = await callRoute(endpoints.listSendingNumbers, { token: token(line.account) });
    expect(numbers.body.data.sendingNumbers).toEqual([expect.objectContaining({ channelId: line.channel.id, mms: true })]);
  });

  it('resends a failed MMS with its pictures when it is retried', async () => {
    const socket = await listen(line);
    const phone = newPhone();
    const conversationId = await conversationWith(line, socket, phone, 'Photos please');
    const [photo, plan] = await Promise.all([upload(line.account, JPEG, 'image/jpeg'), upload(line.account, PNG, 'image/png')]);
    await setTwilioFaults(line.twilio.accountSid, { rest: { status: 503, times: 1 } });
    const failed = await send(line.account, conversationId, 'Both', [photo.id, plan.id]);
    expect(failed.body.data.message).toMatchObject({
      status: 'FAILED',
      media: [{ contentType: 'image/jpeg' }, { contentType: 'image/png' }],
    });
    const retried = await callRoute(endpoints.retryMessage, {
      token: token(line.account),
      params: { id: conversationId, messageId: failed.body.data.message.id },
    });
    expect(retried.status).toBe(200);
    const [sent] = await receivedBy(phone);
    expect(sent?.media.map((m) => m.content_type)).toEqual(['image/jpeg', 'image/png']);
    const fetched = await Promise.all((sent?.media_urls ?? []).map((url) => bytesOf(url)));
    expect(fetched.map((f) => f.bytes)).toEqual([JPEG, PNG]);
  });

  it('deletes a company’s pictures with the company', async () => {
    const doomed = await smsLine();
    const kept = await upload(doomed.account, JPEG, 'image/jpeg');
    const phone = newPhone();
    const started = await start(doomed.account, { to: phone, channelId: doomed.channel.id, body: 'Bye', pictureIds: [kept.id] });
    expect(started.status).toBe(201);
    let mediaUrl = '';
    await expect
      .poll(async () => {
        const [sent] = (
          (await emulatorMessages(doomed.twilio.accountSid)) as (EmulatorMessage & { media_urls: string[] })[]
        ).filter((m) => m.to === phone);
        mediaUrl = sent?.media_urls[0] ?? '';
        return mediaUrl;
      })
      .not.toBe('');
    expect((await bytesOf(mediaUrl)).status).toBe(200);
    const deleted = await callRoute(endpoints.deleteCompany, {
      token: token(doomed.account),
      body: { confirm: doomed.account.company.name },
    });
    expect(deleted.status).toBe(202);
    // The URL Twilio had is still signed and in time, but there is nothing left to read (S3's 404 NoSuchKey).
    await expect.poll(async () => (await bytesOf(mediaUrl)).status, { timeout: 30_000, interval: 200 }).toBe(404);
  });

  it('checks what is asked of it: picture types, sizes and counts answer 400 with a sentence', async () => {
    const ask = (body: unknown) =>
      callRoute(endpoints.createPictureUpload, { token: token(line.account), body: unchecked(body) });
    expect((await ask({ contentType: 'image/webp', size: 10 })).body.error?.details).toEqual({
      fields: { contentType: 'Pictures must be JPEG, PNG or GIF' },
    });
    expect((await ask({ contentType: 'image/png', size: 6 * 1024 * 1024 })).status).toBe(400);
    expect((await ask({ contentType: 'image/png', size: 0 })).status).toBe(400);
    const six = Array.from({ length: 6 }, (_, i) => `00000000-0000-4000-8000-00000000000${i}`);
    const tooMany = await start(line.account, { to: newPhone(), channelId: line.channel.id, body: 'x', pictureIds: six });
    expect(tooMany.status).toBe(400);
    const unknown = await start(line.account, {
      to: newPhone(),
      channelId: line.channel.id,
      body: '',
      pictureIds: ['not-an-upload'],
    });
    expect([unknown.status, unknown.body.error?.message]).toEqual([404, 'Picture not found']);
  });
});
