import { describe, expect, it } from 'vitest';
import type { Message } from '../../shared/contract/conversations';
import { formatPhoneNumber } from '../../shared/phone-numbers';
import { MAX_MESSAGE_LENGTH } from '../../shared/sms-segments';
import { type Account, callRoute, signUp, unchecked } from '../support/api';
import { endpoints } from '../support/endpoints';
import { ownGateway } from '../support/own-gateway';
import {
  conversationWith,
  newPhone,
  readConversation,
  type SmsLine,
  sendText,
  smsLine,
  socketsClosedAfterEach,
} from '../support/sms';
import { addTeamMember } from '../support/team';
import { shareInbox } from '../support/team-inbox';
import { emulatorMessages, newTwilioAccount, numbersByKind, setTwilioFaults, textFromPhone } from '../support/twilio';

const listen = socketsClosedAfterEach();

/**
 * A gateway of this file's own whose Twilio routes stop after 6 s instead of 29 s, for a Twilio that
 * does not answer: a Twilio call within gives up after 4 s (lib/deadline.ts keeps the last third of the
 * time left), not after the client's 8 s.
 */
const SHORT_ROUTE_TIMEOUT_MS = 6_000;
const shortRoutes = ownGateway({ timeoutMs: (route) => (route.timeoutSeconds ? SHORT_ROUTE_TIMEOUT_MS : 10_000) });

const retryAs = (account: Account, conversationId: string, messageId: string) =>
  callRoute(endpoints.retryMessage, { params: { id: conversationId, messageId }, token: account.tokens.accessToken });

/** The message as the thread shows it now. */
async function messageInThread(line: SmsLine, conversationId: string, messageId: string): Promise<Message | undefined> {
  const read = await readConversation(line.account, conversationId);
  return read.body.data.conversation.messages.find((m) => m.id === messageId);
}

/**
 * One line for the tests that only send in conversations of their own (each with its own phone, or its
 * own message found by id) and change nothing of the company's: a number, a Twilio account and a
 * sign-up fewer each.
 */
let shared: Promise<SmsLine> | undefined;
const sharedLine = () => {
  shared ??= smsLine();
  return shared;
};

describe('sending a text', () => {
  it('stores it, hands it to Twilio with its own status callback, and follows it to Delivered', async () => {
    const line = await smsLine();
    const socket = await listen(line);
    const phone = newPhone();
    const conversationId = await conversationWith(line, socket, phone);

    const sent = await sendText(line.account, conversationId, 'Your order ships today.');
    expect(sent.status).toBe(201);
    const message = sent.body.data.message;
    expect(message).toMatchObject({
      conversationId,
      direction: 'OUTBOUND',
      body: 'Your order ships today.',
      sentBy: { id: line.account.user.id, name: line.account.user.name },
      smsMessage: { providerMessageId: expect.stringMatching(/^SM[0-9a-f]{32}$/), segments: 1, errorCode: null },
    });
    expect(['QUEUED', 'SENDING', 'SENT', 'DELIVERED']).toContain(message.status);

    const announced = await socket.next('message_sent', (e) => e.data.message.id === message.id);
    // Whose it is goes with the list's preview: "You:" for its sender, their first name for the others.
    const preview = {
      direction: 'OUTBOUND',
      body: 'Your order ships today.',
      sentBy: { id: line.account.user.id, name: line.account.user.name },
    };
    expect(announced.data.conversation).toMatchObject({ id: conversationId, lastMessage: preview, messageCount: 2 });
    const listed = await callRoute(endpoints.listConversations, { token: line.account.tokens.accessToken });
    expect(listed.body.data.conversations.find((c) => c.id === conversationId)?.lastMessage).toEqual(preview);
    const delivered = await socket.next(
      'message_status_updated',
      (e) => e.data.message.id === message.id && e.data.message.status === 'DELIVERED',
    );
    expect(delivered.data.message.smsMessage).toMatchObject({
      providerStatus: 'delivered',
      providerMessageId: message.smsMessage.providerMessageId,
    });

    // What Twilio holds: the text from the channel's number to the phone, its callback on the platform, each one answered.
    const [twilioMessage] = (await emulatorMessages(line.twilio.accountSid)).filter((m) => m.direction === 'outbound-api');
    expect(twilioMessage).toMatchObject({
      sid: message.smsMessage.providerMessageId,
      from: line.channel.identifier,
      to: phone,
      body: 'Your order ships today.',
    });
    const statusUrl = new URL(twilioMessage?.status_callback ?? '');
    expect(`${statusUrl.origin}${statusUrl.pathname}`).toBe(line.smsUrl.replace(/\/sms$/, '/sms/status'));
    expect(Object.fromEntries(statusUrl.searchParams)).toEqual({
      conversationId,
      messageId: message.id,
      createdAt: message.createdAt,
    });
    const callbacks = async () =>
      (await emulatorMessages(line.twilio.accountSid))
        .find((m) => m.sid === twilioMessage?.sid)
        ?.callbacks.map((c) => [c.messageStatus, c.status]);
    await expect.poll(callbacks).toEqual([
      ['sending', 200],
      ['sent', 200],
      ['delivered', 200],
    ]);

    const inThread = await messageInThread(line, conversationId, message.id);
    expect(inThread).toMatchObject({ status: 'DELIVERED', smsMessage: { providerStatus: 'delivered' } });
    expect((await readConversation(line.account, conversationId)).body.data.conversation.messages.map((m) => m.body)).toEqual([
      'Hi there',
      'Your order ships today.',
    ]);
  });

  it('is refused at once by Twilio for an invalid number (21211) and kept as Failed with the reason', async () => {
    const line = await sharedLine();
    const socket = await listen(line);
    const conversationId = await conversationWith(line, socket, '+15005550001');
    const sent = await sendText(line.account, conversationId, 'Hello?');
    expect(sent.status).toBe(201);
    expect(sent.body.data.message).toMatchObject({
      body: 'Hello?',
      status: 'FAILED',
      smsMessage: {
        providerStatus: 'failed',
        providerMessageId: null,
        errorCode: 21211,
        errorMessage: expect.stringMatching(/\S/),
      },
    });
    const announced = await socket.next('message_sent', (e) => e.data.message.id === sent.body.data.message.id);
    expect(announced.data.message.status).toBe('FAILED');
    expect(await messageInThread(line, conversationId, sent.body.data.message.id)).toEqual(sent.body.data.message);
  });

  it('is refused by Twilio for a number it cannot reach by SMS (21612)', async () => {
    const line = await sharedLine();
    const socket = await listen(line);
    const conversationId = await conversationWith(line, socket, '+15005550009');
    const sent = await sendText(line.account, conversationId, 'Hello?');
    expect(sent.status).toBe(201);
    expect(sent.body.data.message).toMatchObject({ status: 'FAILED', smsMessage: { errorCode: 21612 } });
  });

  it('ends Undelivered (30003) for a handset that cannot be reached, through Twilio’s callbacks', async () => {
    const line = await sharedLine();
    const socket = await listen(line);
    const conversationId = await conversationWith(line, socket, '+15005550006');
    const sent = await sendText(line.account, conversationId, 'Are you there?');
    expect(sent.status).toBe(201);
    const id = sent.body.data.message.id;
    const undelivered = await socket.next(
      'message_status_updated',
      (e) => e.data.message.id === id && e.data.message.status === 'UNDELIVERED',
    );
    expect(undelivered.data.message.smsMessage).toMatchObject({
      providerStatus: 'undelivered',
      errorCode: 30003,
      errorMessage: 'Unreachable destination handset: the phone is off or out of coverage.',
    });
    expect(await messageInThread(line, conversationId, id)).toMatchObject({
      status: 'UNDELIVERED',
      smsMessage: { errorCode: 30003 },
    });
  });

  it('marks a conversation whose last text was undelivered (30003) in the list; Retry sends a new message with its words, once', async () => {
    const line = await smsLine();
    const socket = await listen(line);
    const [stranger, colleague] = await Promise.all([signUp(), addTeamMember(line.account, { name: 'Carla Colleague' })]);
    await shareInbox(line.account, line.channel, [colleague]);
    const handset = '+15005550006';
    const conversationId = await conversationWith(line, socket, handset);
    const sent = await sendText(line.account, conversationId, 'Your order is ready.');
    const failedId = sent.body.data.message.id;
    await socket.next('message_status_updated', (e) => e.data.message.id === failedId && e.data.message.status === 'UNDELIVERED');
    const listed = async () =>
      (await callRoute(endpoints.listConversations, { token: line.account.tokens.accessToken })).body.data.conversations.find(
        (c) => c.id === conversationId,
      )?.lastMessage;
    await expect.poll(listed).toEqual({
      direction: 'OUTBOUND',
      body: 'Your order is ready.',
      failed: true,
      sentBy: { id: line.account.user.id, name: line.account.user.name },
    });

    // Another company's member cannot even see it.
    const foreign = await retryAs(stranger, conversationId, failedId);
    expect({ status: foreign.status, message: foreign.body.error?.message }).toEqual({
      status: 404,
      message: 'Conversation not found',
    });

    const retried = await retryAs(colleague, conversationId, failedId);
    expect(retried.status).toBe(201);
    const resent = retried.body.data.message;
    expect(resent.id).not.toBe(failedId);
    expect(resent).toMatchObject({
      conversationId,
      direction: 'OUTBOUND',
      body: 'Your order is ready.',
      sentBy: { id: colleague.user.id, name: 'Carla Colleague' },
      smsMessage: { providerMessageId: expect.stringMatching(/^SM/), errorCode: null },
    });
    // The failed text stays as it was, naming the message that carried its words again; the tabs hear both.
    const marked = await socket.next(
      'message_status_updated',
      (e) => e.data.message.id === failedId && !!e.data.message.resentAs,
    );
    expect(marked.data.message).toMatchObject({ status: 'UNDELIVERED', resentAs: resent.id, smsMessage: { errorCode: 30003 } });
    const announced = await socket.next('message_sent', (e) => e.data.message.id === resent.id);
    expect(announced.data.conversation.lastMessage).toEqual({
      direction: 'OUTBOUND',
      body: 'Your order is ready.',
      sentBy: { id: colleague.user.id, name: 'Carla Colleague' },
    });
    const thread = (await readConversation(line.account, conversationId)).body.data.conversation;
    expect(thread.messages.map((m) => [m.id, m.body, m.resentAs])).toEqual([
      [expect.any(String), 'Hi there', undefined],
      [failedId, 'Your order is ready.', resent.id],
      [resent.id, 'Your order is ready.', undefined],
    ]);
    const toHandset = (await emulatorMessages(line.twilio.accountSid)).filter((m) => m.to === handset);
    expect(toHandset.map((m) => m.body)).toEqual(['Your order is ready.', 'Your order is ready.']);

    // Once is enough: a second Retry of the same text sends nothing more.
    const again = await retryAs(line.account, conversationId, failedId);
    expect({ status: again.status, message: again.body.error?.message }).toEqual({
      status: 409,
      message: 'This message was already sent again.',
    });
    expect((await emulatorMessages(line.twilio.accountSid)).filter((m) => m.to === handset)).toHaveLength(2);
  });

  it('sends an undelivered text again once when Retry is pressed twice at once', async () => {
    const line = await sharedLine();
    const socket = await listen(line);
    const conversationId = await conversationWith(line, socket, '+15005550006');
    const failedId = (await sendText(line.account, conversationId, 'Twice?')).body.data.message.id;
    await socket.next('message_status_updated', (e) => e.data.message.id === failedId && e.data.message.status === 'UNDELIVERED');
    const answers = await Promise.all([0, 1].map(() => retryAs(line.account, conversationId, failedId)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const thread = (await readConversation(line.account, conversationId)).body.data.conversation;
    expect(thread.messages.filter((m) => m.body === 'Twice?')).toHaveLength(2);
  });

  it('says so when Twilio cannot be reached, and keeps the text', async () => {
    const line = await smsLine();
    const socket = await listen(line);
    const conversationId = await conversationWith(line, socket, newPhone());
    await setTwilioFaults(line.twilio.accountSid, { rest: { delayMs: 30_000 } });
    try {
      const sent = await shortRoutes.callRoute(endpoints.sendMessage, {
        params: { id: conversationId },
        token: line.account.tokens.accessToken,
        body: { body: 'Still there?' },
      });
      expect(sent.status).toBe(201);
      expect(sent.body.data.message).toMatchObject({
        body: 'Still there?',
        status: 'FAILED',
        smsMessage: {
          errorCode: null,
          errorMessage: 'Twilio did not answer in time, so this message may not have been sent.',
        },
      });
      expect(await messageInThread(line, conversationId, sent.body.data.message.id)).toMatchObject({ status: 'FAILED' });
    } finally {
      await setTwilioFaults(line.twilio.accountSid, {});
    }
  });
});

describe('what may be sent', () => {
  it('refuses a blank or too long text with 400 and sends 1,600 characters', async () => {
    const line = await sharedLine();
    const socket = await listen(line);
    const conversationId = await conversationWith(line, socket, newPhone());
    for (const body of ['', '   \n ']) {
      const res = await sendText(line.account, conversationId, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Message content must not be empty' });
    }
    const missing = await callRoute(endpoints.sendMessage, {
      params: { id: conversationId },
      token: line.account.tokens.accessToken,
      body: unchecked({}),
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('Message content must not be empty');

    const tooLong = await sendText(line.account, conversationId, 'a'.repeat(MAX_MESSAGE_LENGTH + 1));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.message).toBe('A message can be at most 1,600 characters');
    expect((await readConversation(line.account, conversationId)).body.data.conversation.messageCount).toBe(1);

    const longest = await sendText(line.account, conversationId, 'a'.repeat(MAX_MESSAGE_LENGTH));
    expect(longest.status).toBe(201);
    expect(longest.body.data.message).toMatchObject({
      status: expect.not.stringMatching('FAILED'),
      smsMessage: { segments: 11 },
    });
  });

  it('refuses with 409 once Twilio was disconnected, saying where to import the number again; the thread says so first', async () => {
    const line = await smsLine();
    const socket = await listen(line);
    const conversationId = await conversationWith(line, socket, newPhone());
    const token = line.account.tokens.accessToken;
    const thread = async () => (await readConversation(line.account, conversationId)).body.data.conversation;
    expect((await thread()).sendingBlockedBy).toBeNull();
    expect((await callRoute(endpoints.disconnectProvider, { params: { id: line.provider.id }, token })).status).toBe(200);
    expect((await thread()).sendingBlockedBy).toBe('CHANNEL_INACTIVE');
    const res = await sendText(line.account, conversationId, 'Anyone?');
    expect(res.status).toBe(409);
    // The company's numbers are in the US: written nationally, as the app writes them.
    const number = formatPhoneNumber(line.channel.identifier, 'US');
    expect(number).toMatch(/^\(\d{3}\) \d{3}-\d{4}$/);
    expect(res.body.error).toEqual({
      code: 'CHANNEL_INACTIVE',
      message: `Texts cannot be sent from ${number}: it is inactive since Twilio was disconnected. Import the number again in Settings → Providers to send from it.`,
    });
    expect((await readConversation(line.account, conversationId)).body.data.conversation.messageCount).toBe(1);
  });
});

describe('a contact who opted out', () => {
  it('texting STOP through Twilio refuses the next send with a clear message', async () => {
    const line = await smsLine();
    const socket = await listen(line);
    const phone = newPhone();
    await textFromPhone({ from: phone, to: line.channel.identifier, body: 'STOP' });
    const stop = await socket.next('new_message', (e) => e.data.conversation.contact.phoneNumber === phone);
    expect(stop.data.conversation.optedOut).toBe(true);
    const res = await sendText(line.account, stop.data.conversationId, 'Wait, one more thing');
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('OPTED_OUT');
    expect(res.body.error.message).toBe(
      'This contact opted out of texts from this number (they replied STOP). They can text START to opt back in.',
    );
  });

  it('a send Twilio refuses with 21610 marks the conversation opted out', async () => {
    // The phone opted out with Twilio before the company imported the number, so the app never saw the STOP.
    const twilio = await newTwilioAccount();
    const { full } = numbersByKind(twilio);
    const phone = newPhone();
    await textFromPhone({ from: phone, to: full.phone_number, body: 'STOP' });
    const line = await smsLine({ twilio });
    const socket = await listen(line);
    const conversationId = await conversationWith(line, socket, phone, 'what are your hours?');

    const sent = await sendText(line.account, conversationId, '9 to 5');
    expect(sent.status).toBe(201);
    expect(sent.body.data.message).toMatchObject({ status: 'FAILED', smsMessage: { errorCode: 21610 } });
    expect((await readConversation(line.account, conversationId)).body.data.conversation.optedOut).toBe(true);
    const again = await sendText(line.account, conversationId, 'Hello?');
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('OPTED_OUT');
  });
});
