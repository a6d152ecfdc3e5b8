import { describe, expect, it } from 'vitest';
import { fillPath } from '../../shared/contract/route';
import { api, callRoute, signUp, stack } from '../support/api';
import { endpoints } from '../support/endpoints';
import { newPhone, readConversation, smsLine } from '../support/sms';
import { emulatorMessages, type TwilioAccount, textFromPhone, twilioMediaContent } from '../support/twilio';

/**
 * Pictures in texts: a phone sends an MMS through the emulator, which posts Twilio's signed
 * webhook with NumMedia/MediaUrlN/MediaContentTypeN; the thread shows each item by Switchboard's own
 * route, which fetches the bytes from Twilio with the company's credentials.
 */

/** The emulator's own copy of each media item of the account's latest message, by Twilio's REST API. */
async function twilioCopies(twilio: TwilioAccount) {
  const message = (await emulatorMessages(twilio.accountSid)).at(-1);
  if (!message) throw new Error('the emulator holds no message');
  return Promise.all(
    message.media.map((m) => twilioMediaContent(twilio, `${stack().urls.twilio}${m.uri.replace(/\.json$/, '')}`)),
  );
}

async function latestConversation(token: string) {
  const page = await callRoute(endpoints.listConversations, { token });
  const conversation = page.body.data.conversations[0];
  if (!conversation) throw new Error('no conversation');
  return conversation;
}

describe('inbound MMS', () => {
  it('stores both pictures of a text and serves their bytes to the company, kept by no cache, and 404 to another', async () => {
    const line = await smsLine();
    const token = line.account.tokens.accessToken;
    const from = newPhone();
    await textFromPhone({
      from,
      to: line.channel.identifier,
      body: 'The dent, and the receipt',
      media: [{ contentType: 'image/png' }, { contentType: 'image/jpeg' }],
    });

    const conversation = await latestConversation(token);
    expect(conversation.lastMessage).toEqual({
      direction: 'INBOUND',
      body: 'The dent, and the receipt',
      mediaCount: 2,
      mediaKinds: ['photo', 'photo'],
    });
    const [message] = (await readConversation(line.account, conversation.id)).body.data.conversation.messages;
    if (!message) throw new Error('no message');
    const params = (index: number) => ({ id: conversation.id, messageId: message.id, index: String(index) });
    const path = (index: number) => fillPath(endpoints.messageMedia.path, params(index));
    expect(message.body).toBe('The dent, and the receipt');
    expect(message.media).toEqual([
      { contentType: 'image/png', url: path(0) },
      { contentType: 'image/jpeg', url: path(1) },
    ]);

    const copies = await twilioCopies(line.twilio);
    expect(copies).toHaveLength(2);
    for (const [index, item] of message.media.entries()) {
      const served = await api(item.url, { token });
      expect(served.status, `media ${index}`).toBe(200);
      expect(served.headers.get('content-type')).toBe(item.contentType);
      // Nothing of it outlives the session in the browser (docs/security.md: Media in the browser).
      expect(served.headers.get('cache-control')).toBe('private, no-store');
      expect(served.headers.get('content-disposition')).toBe('inline');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(served.bytes.equals(copies[index]?.bytes ?? Buffer.alloc(0)), `media ${index}: the emulator's bytes`).toBe(true);
    }
    // Real pictures: PNG's signature, JPEG's start of image.
    expect((await callRoute(endpoints.messageMedia, { params: params(0), token })).bytes.subarray(0, 8).toString('hex')).toBe(
      '89504e470d0a1a0a',
    );
    expect((await callRoute(endpoints.messageMedia, { params: params(1), token })).bytes.subarray(0, 2).toString('hex')).toBe(
      'ffd8',
    );

    // Beyond the message's media, or not an index: not found, as an envelope.
    for (const bad of ['2', '-1', 'x', '00000000000']) {
      const missing = await callRoute(endpoints.messageMedia, {
        params: { id: conversation.id, messageId: message.id, index: bad },
        token,
      });
      expect(missing.status, bad).toBe(404);
      expect(missing.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    }

    // Another company: the same path is not found; nothing of the picture leaves.
    const other = await signUp();
    const refused = await callRoute(endpoints.messageMedia, { params: params(0), token: other.tokens.accessToken });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    // Signed out: refused before anything is read.
    expect((await callRoute(endpoints.messageMedia, { params: params(0) })).status).toBe(401);
  });

  it('serves only allowed pictures, recordings and videos inline; PDF and vCard as named downloads; anything else as bytes to save (docs/security.md: Attachments)', async () => {
    const line = await smsLine();
    const token = line.account.tokens.accessToken;
    const types = ['application/x-exe', 'application/pdf', 'text/vcard', 'image/svg+xml', 'application/hta', 'video/mp4'];
    await textFromPhone({ from: newPhone(), to: line.channel.identifier, media: types.map((contentType) => ({ contentType })) });
    const conversation = await latestConversation(token);
    const [message] = (await readConversation(line.account, conversation.id)).body.data.conversation.messages;
    if (!message) throw new Error('no message');
    // The thread is told what was announced; the rule in shared/attachments.ts decides what it shows.
    expect(message.media.map((m) => m.contentType)).toEqual(types);
    const served = await Promise.all(message.media.map((item) => api(item.url, { token })));
    expect(
      served.map((answer) => [
        answer.status,
        answer.headers.get('content-type'),
        answer.headers.get('content-disposition'),
        answer.headers.get('x-content-type-options'),
        answer.headers.get('cache-control'),
      ]),
    ).toEqual([
      [200, 'application/octet-stream', 'attachment', 'nosniff', 'private, no-store'],
      [200, 'application/pdf', 'attachment; filename="attachment-2.pdf"', 'nosniff', 'private, no-store'],
      [200, 'text/vcard', 'attachment; filename="attachment-3.vcf"', 'nosniff', 'private, no-store'],
      [200, 'application/octet-stream', 'attachment', 'nosniff', 'private, no-store'],
      [200, 'application/octet-stream', 'attachment', 'nosniff', 'private, no-store'],
      [200, 'video/mp4', 'inline', 'nosniff', 'private, no-store'],
    ]);
  });

  it('keeps a message of pictures only: an empty body, its media, and a preview that counts them', async () => {
    const line = await smsLine();
    const token = line.account.tokens.accessToken;
    await textFromPhone({ from: newPhone(), to: line.channel.identifier, media: [{ contentType: 'image/gif' }] });

    const conversation = await latestConversation(token);
    expect(conversation.lastMessage).toEqual({ direction: 'INBOUND', body: '', mediaCount: 1, mediaKinds: ['photo'] });
    const [message] = (await readConversation(line.account, conversation.id)).body.data.conversation.messages;
    expect(message).toMatchObject({ direction: 'INBOUND', body: '', media: [{ contentType: 'image/gif' }] });
    const served = await api(message?.media[0]?.url ?? '', { token });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/gif');
    expect(served.bytes.subarray(0, 6).toString('latin1')).toBe('GIF89a');
  });

  it('says what a message without text sent: the kind of each item, so the list can say "PDF" or "2 attachments"', async () => {
    const line = await smsLine();
    const token = line.account.tokens.accessToken;
    await textFromPhone({ from: newPhone(), to: line.channel.identifier, media: [{ contentType: 'application/pdf' }] });
    expect((await latestConversation(token)).lastMessage).toEqual({
      direction: 'INBOUND',
      body: '',
      mediaCount: 1,
      mediaKinds: ['pdf'],
    });
    await textFromPhone({
      from: newPhone(),
      to: line.channel.identifier,
      media: [{ contentType: 'image/jpeg' }, { contentType: 'text/vcard' }],
    });
    expect((await latestConversation(token)).lastMessage).toEqual({
      direction: 'INBOUND',
      body: '',
      mediaCount: 2,
      mediaKinds: ['photo', 'file'],
    });
  });

  it('a text without pictures has no media and no media count', async () => {
    const line = await smsLine();
    await textFromPhone({ from: newPhone(), to: line.channel.identifier, body: 'Just words' });
    const conversation = await latestConversation(line.account.tokens.accessToken);
    expect(conversation.lastMessage).toEqual({ direction: 'INBOUND', body: 'Just words' });
    const [message] = (await readConversation(line.account, conversation.id)).body.data.conversation.messages;
    expect(message?.media).toEqual([]);
    const none = await callRoute(endpoints.messageMedia, {
      params: { id: conversation.id, messageId: String(message?.id), index: '0' },
      token: line.account.tokens.accessToken,
    });
    expect(none.status).toBe(404);
  });
});
