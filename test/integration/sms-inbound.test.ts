import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { twilioSignature } from '@switchboard/twilio-emulator/signature';
import { beforeAll, describe, expect, it } from 'vitest';
import { THREAD_PAGE_SIZE } from '../../shared/contract/conversations';
import { fillPath, TWILIO_WEBHOOKS } from '../../shared/contract/route';
import { callRoute, signUp, stack, unchecked } from '../support/api';
import { endpoints } from '../support/endpoints';
import type { Socket } from '../support/realtime';
import {
  EMPTY_TWIML,
  inboundParams,
  newPhone,
  postWebhook,
  readConversation,
  type SmsLine,
  sendText,
  smsLine,
  socketsClosedAfterEach,
  textIn,
  webhookIdOf,
} from '../support/sms';
import { testTable } from '../support/table';
import { numberOf, numbersByKind, textFromPhone } from '../support/twilio';

const listen = socketsClosedAfterEach();

/**
 * The company most tests text: each test texts from phones of its own (newPhone) and reads only their
 * conversations, so one company serves them all, where a company each cost a sign-up, a Twilio
 * connection and an import (docs/testing.md: Measured). A test that changes the provider or the
 * webhook, or counts the company's conversations, makes its own.
 */
let shared: SmsLine;
beforeAll(async () => {
  shared = await smsLine();
});

/** The conversation a phone's text landed in, as the company's sockets hear it. */
async function conversationFrom(socket: Socket, phone: string) {
  const event = await socket.next('new_message', (e) => e.data.conversation.contact.phoneNumber === phone);
  return event.data;
}

/** What the table holds for a text and a phone: how a test sees that a refused webhook stored nothing. */
async function storedFor(line: SmsLine, messageSid: string, phone: string) {
  const { client, tableName } = testTable();
  const get = async (PK: string, SK: string) =>
    (await client.send(new GetCommand({ TableName: tableName, Key: { PK, SK } }))).Item;
  return {
    message: await get(`MSGSID#${messageSid}`, 'MSGSID'),
    contact: await get(`COMPANY#${line.account.company.id}`, `CONTACTPHONE#${phone}`),
  };
}

describe('an inbound text', () => {
  it('creates the contact and an open conversation, answers empty TwiML and tells the company', async () => {
    const line = shared;
    const socket = await listen(line);
    const phone = newPhone();

    // The carrier (the emulator) delivers the text and posts Twilio's signed webhook to the number's SmsUrl.
    const delivered = await textFromPhone({ from: phone, to: line.channel.identifier, body: 'Hello, is my order on its way?' });
    expect(delivered.webhook).toMatchObject({ url: line.smsUrl, status: 200, body: EMPTY_TWIML });

    const { conversationId, message, conversation } = await conversationFrom(socket, phone);
    expect(message).toMatchObject({
      conversationId,
      direction: 'INBOUND',
      body: 'Hello, is my order on its way?',
      status: 'RECEIVED',
      sentBy: null,
      smsMessage: { providerStatus: 'received', segments: 1, errorCode: null },
    });
    expect(conversation).toMatchObject({
      id: conversationId,
      status: 'OPEN',
      contact: { name: '', phoneNumber: phone },
      channel: { id: line.channel.id, identifier: line.channel.identifier },
      lastMessage: { direction: 'INBOUND', body: 'Hello, is my order on its way?' },
      lastMessageAt: message.createdAt,
      messageCount: 1,
      optedOut: false,
    });
    expect(conversation.contact.id).toEqual(expect.any(String));

    const read = await readConversation(line.account, conversationId);
    expect(read.status).toBe(200);
    expect(read.body.data.conversation).toEqual({
      ...conversation,
      // The event is the company's; the detail is the reader's, who has not read the text yet.
      unreadCount: 1,
      sendingBlockedBy: null,
      picturesBlockedBy: null,
      messages: [message],
      olderCursor: null,
      // Who may be assigned it or mentioned: the owner alone (docs/product.md: Who sees what).
      members: [{ id: line.account.user.id, name: line.account.user.name }],
    });
  });

  it('appends later texts of the same phone to its conversation, in order', async () => {
    const line = shared;
    const socket = await listen(line);
    const phone = newPhone();
    await textIn(line, { from: phone, body: 'first' });
    const first = await conversationFrom(socket, phone);
    await textIn(line, { from: phone, body: 'second' });
    const second = await conversationFrom(socket, phone);

    expect(second.conversationId).toBe(first.conversationId);
    expect(second.conversation.contact.id).toBe(first.conversation.contact.id);
    expect(second.conversation).toMatchObject({ messageCount: 2, lastMessage: { body: 'second' } });
    const read = await readConversation(line.account, first.conversationId);
    expect(read.body.data.conversation.messages.map((m) => m.body)).toEqual(['first', 'second']);
  });

  it('is stored once when Twilio delivers it three times, one after another', async () => {
    const line = shared;
    const socket = await listen(line);
    const phone = newPhone();
    const delivered = await textFromPhone({ from: phone, to: line.channel.identifier, body: 'only once please', deliveries: 3 });
    expect(delivered.webhooks.map((w) => w.status)).toEqual([200, 200, 200]);
    const { conversationId } = await conversationFrom(socket, phone);
    const read = await readConversation(line.account, conversationId);
    expect(read.body.data.conversation.messageCount).toBe(1);
    expect(read.body.data.conversation.messages.map((m) => m.body)).toEqual(['only once please']);
    await socket.beat();
    expect(socket.log.filter((e) => e.type === 'new_message' && e.data.conversation.contact.phoneNumber === phone)).toHaveLength(
      1,
    );
  });

  it('is stored once when five copies arrive at the same time', async () => {
    const line = shared;
    const socket = await listen(line);
    const phone = newPhone();
    const delivered = await textFromPhone({ from: phone, to: line.channel.identifier, body: 'parallel', parallel: 5 });
    expect(delivered.webhooks.map((w) => w.status)).toEqual([200, 200, 200, 200, 200]);
    const { conversationId } = await conversationFrom(socket, phone);
    const read = await readConversation(line.account, conversationId);
    expect(read.body.data.conversation.messages.map((m) => m.body)).toEqual(['parallel']);
    await socket.beat();
    expect(socket.log.filter((e) => e.type === 'new_message' && e.data.conversation.contact.phoneNumber === phone)).toHaveLength(
      1,
    );
  });

  it('makes one contact and one conversation when a new phone’s first two texts arrive at once', async () => {
    const line = shared;
    const socket = await listen(line);
    const phone = newPhone();
    const answers = await Promise.all([textIn(line, { from: phone, body: 'one' }), textIn(line, { from: phone, body: 'two' })]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const a = await conversationFrom(socket, phone);
    const b = await conversationFrom(socket, phone);
    expect(b.conversationId).toBe(a.conversationId);
    expect(b.conversation.contact.id).toBe(a.conversation.contact.id);
    const read = await readConversation(line.account, a.conversationId);
    expect(read.body.data.conversation.messageCount).toBe(2);
    expect(read.body.data.conversation.messages.map((m) => m.body).sort()).toEqual(['one', 'two']);
  });

  it('normalises the sender to E.164', async () => {
    const line = shared;
    const socket = await listen(line);
    // A phone of its own (+1202555xxxx), as a person types it: the shared company's other tests text from such phones too.
    const phone = newPhone();
    const typed = `+1 (202) 555-${phone.slice(-4)}`;
    const answer = await postWebhook(line.smsUrl, inboundParams(line, { from: typed, body: 'formatted' }), {
      authToken: line.twilio.authToken,
    });
    expect(answer.status).toBe(200);
    const { conversation } = await conversationFrom(socket, phone);
    expect(conversation.contact.phoneNumber).toBe(phone);
  });
});

describe('the webhook’s signature', () => {
  it('refuses a forged or missing signature with 403 and stores nothing', async () => {
    const line = shared;
    const phone = newPhone();
    const signedWithWrongKey = await textFromPhone({
      from: phone,
      to: line.channel.identifier,
      body: 'forged',
      signature: 'invalid',
    });
    expect(signedWithWrongKey.webhook?.status).toBe(403);
    const forged = inboundParams(line, { from: phone, body: 'forged' });
    const wrongKey = await postWebhook(line.smsUrl, forged, { authToken: 'f'.repeat(32) });
    expect(wrongKey.status).toBe(403);
    expect(JSON.parse(wrongKey.text).error).toEqual({
      code: 'FORBIDDEN',
      message: 'X-Twilio-Signature does not match this request.',
    });

    const missing = inboundParams(line, { from: phone, body: 'unsigned' });
    const unsigned = await postWebhook(line.smsUrl, missing, { authToken: line.twilio.authToken, signature: null });
    expect(unsigned.status).toBe(403);
    expect(JSON.parse(unsigned.text).error.message).toBe('X-Twilio-Signature is missing.');

    // A genuine signature over other parameters than those sent.
    const tampered = inboundParams(line, { from: phone, body: 'tampered' });
    const signedForOther = await postWebhook(line.smsUrl, tampered, {
      authToken: line.twilio.authToken,
      signature: twilioSignature(line.twilio.authToken, line.smsUrl, { ...tampered, Body: 'something else' }),
    });
    expect(signedForOther.status).toBe(403);

    for (const sid of [signedWithWrongKey.sid, forged.MessageSid, missing.MessageSid, tampered.MessageSid]) {
      expect(await storedFor(line, sid, phone)).toEqual({ message: undefined, contact: undefined });
    }
  });

  it('is checked against the public URL the number was given, not the host the request reached', async () => {
    const line = await smsLine();
    const socket = await listen(line);
    // As in AWS: Twilio calls CloudFront's address, and the function sees API Gateway's. The provider
    // is recorded as connected while the platform's public address was this one.
    const publicBase = `https://switchboard.example.test${TWILIO_WEBHOOKS}`;
    const path = new URL(line.smsUrl).pathname;
    const webhookId = webhookIdOf(line);
    const { client, tableName } = testTable();
    for (const Key of [
      { PK: `COMPANY#${line.account.company.id}`, SK: `PROVIDER#${line.provider.id}` },
      { PK: `WEBHOOK#${webhookId}`, SK: 'WEBHOOK' },
    ]) {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key,
          UpdateExpression: 'SET webhookBaseUrl = :base',
          ExpressionAttributeValues: { ':base': publicBase },
        }),
      );
    }
    expect(line.smsUrl.startsWith(stack().urls.api)).toBe(true);

    const phone = newPhone();
    const signedForSeenUrl = inboundParams(line, { from: phone, body: 'signed for the gateway' });
    const refused = await postWebhook(line.smsUrl, signedForSeenUrl, { authToken: line.twilio.authToken });
    expect(refused.status).toBe(403);

    const signedForPublicUrl = inboundParams(line, { from: phone, body: 'signed for the public URL' });
    const accepted = await postWebhook(line.smsUrl, signedForPublicUrl, {
      authToken: line.twilio.authToken,
      signedUrl: `https://switchboard.example.test${path}`,
    });
    expect(accepted).toMatchObject({ status: 200, text: EMPTY_TWIML });
    const { conversationId } = await conversationFrom(socket, phone);
    const read = await readConversation(line.account, conversationId);
    expect(read.body.data.conversation.messages.map((m) => m.body)).toEqual(['signed for the public URL']);
  });

  it('is checked with the provider record when the webhook item predates the token it now carries', async () => {
    const line = await smsLine();
    const socket = await listen(line);
    const { client, tableName } = testTable();
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { PK: `WEBHOOK#${webhookIdOf(line)}`, SK: 'WEBHOOK' },
        UpdateExpression: 'REMOVE authTokenEncrypted, webhookBaseUrl',
      }),
    );
    const phone = newPhone();
    const forged = await postWebhook(line.smsUrl, inboundParams(line, { from: phone, body: 'forged' }), {
      authToken: 'f'.repeat(32),
    });
    expect(forged.status).toBe(403);
    expect((await textIn(line, { from: phone, body: 'still checked' })).status).toBe(200);
    expect((await conversationFrom(socket, phone)).message.body).toBe('still checked');
  });

  it('answers 404 for a webhook id nobody has', async () => {
    const line = shared;
    const unknown = new URL(fillPath(endpoints.inboundSmsWebhook.path, { webhookId: 'no-such-webhook' }), line.smsUrl).href;
    const answer = await postWebhook(unknown, inboundParams(line, { from: newPhone(), body: 'hi' }), {
      authToken: line.twilio.authToken,
    });
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.text).error).toEqual({ code: 'NOT_FOUND', message: 'Unknown webhook' });
  });

  it('answers 400 for a signed request without the parameters of a text, never 500', async () => {
    const line = shared;
    const { MessageSid: _sid, ...withoutSid } = inboundParams(line, { from: newPhone(), body: 'no sid' });
    const noSid = await postWebhook(line.smsUrl, withoutSid, { authToken: line.twilio.authToken });
    expect(noSid.status).toBe(400);
    expect(JSON.parse(noSid.text).error.details.fields).toEqual({ MessageSid: 'MessageSid is required' });

    const notAPhone = await postWebhook(line.smsUrl, inboundParams(line, { from: 'not a phone', body: 'x' }), {
      authToken: line.twilio.authToken,
    });
    expect(notAPhone.status).toBe(400);
    expect(JSON.parse(notAPhone.text).error.message).toBe('From is not a phone number');

    const json = await fetch(line.smsUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(json.status).toBe(403);
  });
});

describe('a text to a number that is not an active SMS channel', () => {
  async function expectIgnored(line: SmsLine, url: string, to: string) {
    const phone = newPhone();
    const params = inboundParams(line, { from: phone, body: 'anyone there?', to });
    const answer = await postWebhook(url, params, { authToken: line.twilio.authToken });
    expect(answer).toEqual({ status: 200, contentType: 'text/xml; charset=utf-8', text: EMPTY_TWIML });
    expect(await storedFor(line, params.MessageSid, phone)).toEqual({ message: undefined, contact: undefined });
  }

  it('is answered with empty TwiML and not stored: a number never imported, or imported for voice only', async () => {
    const line = await smsLine();
    const { voiceOnly, smsOnly } = numbersByKind(line.twilio);
    await expectIgnored(line, line.smsUrl, smsOnly.phone_number);
    const imported = await callRoute(endpoints.importChannels, {
      params: { id: line.provider.id },
      token: line.account.tokens.accessToken,
      body: { numbers: [{ sid: voiceOnly.sid, phoneNumber: voiceOnly.phone_number, capabilities: { voice: true, sms: false } }] },
    });
    expect(imported.body.data.importedCount).toBe(1);
    await expectIgnored(line, line.smsUrl, voiceOnly.phone_number);
  });

  it('is answered with empty TwiML and not stored once the provider that imported it was disconnected', async () => {
    const line = await smsLine();
    const token = line.account.tokens.accessToken;
    expect((await callRoute(endpoints.disconnectProvider, { params: { id: line.provider.id }, token })).status).toBe(200);
    // The old webhook id is gone with its provider.
    const old = await postWebhook(line.smsUrl, inboundParams(line, { from: newPhone(), body: 'old' }), {
      authToken: line.twilio.authToken,
    });
    expect(old.status).toBe(404);

    // Connected again: a new webhook id, and the old channel stays inactive until imported again.
    const again = await callRoute(endpoints.connectTwilio, {
      token,
      body: { accountSid: line.twilio.accountSid, authToken: line.twilio.authToken },
    });
    const { smsOnly } = numbersByKind(line.twilio);
    await callRoute(endpoints.importChannels, {
      params: { id: again.body.data.provider.id },
      token,
      body: { numbers: [{ sid: smsOnly.sid, phoneNumber: smsOnly.phone_number, capabilities: { voice: false, sms: true } }] },
    });
    const newUrl = (await numberOf(line.twilio, smsOnly.sid)).sms_url;
    expect(newUrl).not.toBe(line.smsUrl);
    await expectIgnored(line, newUrl, line.channel.identifier);
  });
});

describe('opting out', () => {
  it('STOP marks the conversation opted out and sending is refused; START lifts it', async () => {
    const line = shared;
    const socket = await listen(line);
    const phone = newPhone();
    await textIn(line, { from: phone, body: 'hello' });
    const { conversationId } = await conversationFrom(socket, phone);

    await textIn(line, { from: phone, body: ' stop ' });
    const stopped = await conversationFrom(socket, phone);
    expect(stopped.message.body).toBe(' stop ');
    expect(stopped.conversation.optedOut).toBe(true);

    const refused = await sendText(line.account, conversationId, 'Are you sure?');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({
      code: 'OPTED_OUT',
      message: 'This contact opted out of texts from this number (they replied STOP). They can text START to opt back in.',
    });
    const read = await readConversation(line.account, conversationId);
    expect(read.body.data.conversation).toMatchObject({ optedOut: true, messageCount: 2 });

    await textIn(line, { from: phone, body: 'START' });
    expect((await conversationFrom(socket, phone)).conversation.optedOut).toBe(false);
  });
});

describe('a closed conversation', () => {
  it('is reopened by the contact’s next text', async () => {
    const line = await smsLine();
    const socket = await listen(line);
    const phone = newPhone();
    await textIn(line, { from: phone, body: 'thanks, all sorted' });
    const { conversationId } = await conversationFrom(socket, phone);
    const closed = await callRoute(endpoints.updateConversationStatus, {
      params: { id: conversationId },
      token: line.account.tokens.accessToken,
      body: { status: 'CLOSED' },
    });
    expect(closed.status).toBe(200);

    await textIn(line, { from: phone, body: 'actually, one more thing' });
    const reopened = await socket.next('conversation_reopened', (e) => e.data.conversationId === conversationId);
    expect(reopened.data.conversation).toMatchObject({ status: 'OPEN', messageCount: 2 });
    const next = await conversationFrom(socket, phone);
    expect(next.conversationId).toBe(conversationId);
    const read = await readConversation(line.account, conversationId);
    expect(read.body.data.conversation).toMatchObject({ status: 'OPEN', messageCount: 2 });
    // The company's counters moved with it: the list's totals.
    const list = async (status: string) =>
      (
        await callRoute(endpoints.listConversations, {
          query: { status: unchecked(status) },
          token: line.account.tokens.accessToken,
        })
      ).body.data;
    expect(await list('OPEN')).toMatchObject({ total: 1, conversations: [{ id: conversationId, status: 'OPEN' }] });
    expect(await list('CLOSED')).toMatchObject({ total: 0, conversations: [] });
  });
});

describe('reading a conversation', () => {
  it('opens with the newest messages, oldest first, and pages back with before', async () => {
    const line = shared;
    const socket = await listen(line);
    const phone = newPhone();
    const total = THREAD_PAGE_SIZE + 5;
    for (let i = 1; i <= total; i++) {
      expect((await textIn(line, { from: phone, body: `text ${i}` })).status).toBe(200);
    }
    const { conversationId } = await conversationFrom(socket, phone);
    const first = await readConversation(line.account, conversationId);
    const page = first.body.data.conversation;
    expect(page.messageCount).toBe(total);
    expect(page.messages.map((m) => m.body)).toEqual(Array.from({ length: THREAD_PAGE_SIZE }, (_, i) => `text ${i + 6}`));
    expect(page.olderCursor).toEqual(expect.any(String));

    const older = await readConversation(line.account, conversationId, page.olderCursor as string);
    expect(older.status).toBe(200);
    expect(older.body.data.conversation.messages.map((m) => m.body)).toEqual(['text 1', 'text 2', 'text 3', 'text 4', 'text 5']);
    expect(older.body.data.conversation.olderCursor).toBeNull();
  });

  it('refuses a cursor it did not make with 400', async () => {
    const line = shared;
    const socket = await listen(line);
    const phone = newPhone();
    await textIn(line, { from: phone, body: 'hi' });
    const { conversationId } = await conversationFrom(socket, phone);
    for (const before of ['not-a-cursor', Buffer.from('CONTACT#x').toString('base64url'), 'x'.repeat(501)]) {
      const res = await readConversation(line.account, conversationId, before);
      expect(res.status, before).toBe(400);
      expect(res.body.success).toBe(false);
    }
  });
});

describe('tenancy', () => {
  it('another company’s user gets 404 reading or texting a conversation', async () => {
    const line = shared;
    const socket = await listen(line);
    const phone = newPhone();
    await textIn(line, { from: phone, body: 'private' });
    const { conversationId } = await conversationFrom(socket, phone);
    const stranger = await signUp();

    const read = await readConversation(stranger, conversationId);
    expect(read.status).toBe(404);
    expect(read.body.error).toEqual({ code: 'NOT_FOUND', message: 'Conversation not found' });
    const send = await sendText(stranger, conversationId, 'hello from elsewhere');
    expect(send.status).toBe(404);
    expect(send.body.error).toEqual({ code: 'NOT_FOUND', message: 'Conversation not found' });

    const unknown = await readConversation(line.account, 'no-such-conversation');
    expect(unknown.status).toBe(404);
    expect((await readConversation(line.account, conversationId)).body.data.conversation.messages).toHaveLength(1);
  });

  it('a text to another company’s number through this company’s webhook is not stored', async () => {
    const line = shared;
    const other = await smsLine();
    const phone = newPhone();
    const params = inboundParams(line, { from: phone, body: 'crossing over', to: other.channel.identifier });
    const answer = await postWebhook(line.smsUrl, params, { authToken: line.twilio.authToken });
    expect(answer.status).toBe(200);
    expect(await storedFor(other, params.MessageSid, phone)).toEqual({ message: undefined, contact: undefined });
    expect(await storedFor(line, params.MessageSid, phone)).toEqual({ message: undefined, contact: undefined });
  });
});
