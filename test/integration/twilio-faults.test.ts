import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Account, callRoute, signUp, unchecked } from '../support/api';
import { endpoints } from '../support/endpoints';
import {
  conversationWith,
  newPhone,
  readConversation,
  type SmsLine,
  sendText,
  smsLine,
  socketsClosedAfterEach,
} from '../support/sms';
import { emulatorMessages, newTwilioAccount, setMessageStepMs, setTwilioFaults } from '../support/twilio';

/**
 * Twilio failing from the outside (the emulator's fault switch) against the real handlers: an error
 * answer is a 502 with Twilio's reason, what the user typed is kept, and a failed text can be sent
 * again from the thread. Slow Twilio (504) is in twilio-timeouts.test.ts.
 */
const listen = socketsClosedAfterEach();

let line: SmsLine;
let stranger: Account;
beforeAll(async () => {
  [line, stranger] = await Promise.all([smsLine(), signUp()]);
});
afterEach(() => setTwilioFaults(line.twilio.accountSid, {}));

const twilioDown = (times: number) => setTwilioFaults(line.twilio.accountSid, { rest: { status: 503, times } });
const token = () => line.account.tokens.accessToken;
const retry = (account: Account, conversationId: string, messageId: string) =>
  callRoute(endpoints.retryMessage, { params: { id: conversationId, messageId }, token: account.tokens.accessToken });

const unavailable = (action: string) => ({
  success: false,
  error: {
    code: 'PROVIDER_UNAVAILABLE',
    message: `Twilio could not ${action}: Service Unavailable (Twilio answered 503, error 20503). Please try again.`,
  },
});

describe('Twilio answering 503', () => {
  it('answers each provider route 502 with Twilio’s reason, and changes nothing', async () => {
    const ofProvider = { id: line.provider.id };
    const [number] = line.twilio.numbers;
    const channelsBefore = (await callRoute(endpoints.listChannels, { token: token() })).body;
    const other = await newTwilioAccount();

    await twilioDown(3);
    const available = await callRoute(endpoints.availableNumbers, { params: ofProvider, token: token() });
    expect({ status: available.status, body: available.body }).toEqual({
      status: 502,
      body: unavailable('list the phone numbers'),
    });
    const imported = await callRoute(endpoints.importChannels, {
      params: ofProvider,
      token: token(),
      body: unchecked({
        numbers: [{ sid: number?.sid, phoneNumber: number?.phone_number, capabilities: { voice: true, sms: true } }],
      }),
    });
    expect({ status: imported.status, body: imported.body }).toEqual({
      status: 502,
      body: unavailable('list the phone numbers'),
    });
    const connected = await callRoute(endpoints.connectTwilio, {
      token: stranger.tokens.accessToken,
      body: { accountSid: line.twilio.accountSid, authToken: line.twilio.authToken },
    });
    expect({ status: connected.status, body: connected.body }).toEqual({ status: 502, body: unavailable('check the account') });

    expect((await callRoute(endpoints.listChannels, { token: token() })).body).toEqual(channelsBefore);
    expect((await callRoute(endpoints.listProviders, { token: stranger.tokens.accessToken })).body.data.providers).toEqual([]);
    // The fault was this account's alone: another account's Twilio answers meanwhile.
    await setTwilioFaults(line.twilio.accountSid, { rest: { status: 503 } });
    const elsewhere = await callRoute(endpoints.connectTwilio, {
      token: stranger.tokens.accessToken,
      body: { accountSid: other.accountSid, authToken: other.authToken },
    });
    expect(elsewhere.status).toBe(201);
  });

  it('stores a text Twilio refused as Failed with the reason, and Retry from the thread sends the same message', async () => {
    const socket = await listen(line);
    const conversationId = await conversationWith(line, socket, newPhone());
    await twilioDown(2);
    const sent = await sendText(line.account, conversationId, 'Your table is ready.');
    expect(sent.status).toBe(201);
    const failed = sent.body.data.message;
    expect(failed).toMatchObject({
      body: 'Your table is ready.',
      status: 'FAILED',
      smsMessage: { providerMessageId: null, errorCode: 20503, errorMessage: 'Service Unavailable' },
    });

    // Still down: the retry fails the same way, and the message stays one message.
    const stillDown = await retry(line.account, conversationId, failed.id);
    expect(stillDown.status).toBe(200);
    expect(stillDown.body.data.message).toMatchObject({ id: failed.id, status: 'FAILED', smsMessage: { errorCode: 20503 } });

    const retried = await retry(line.account, conversationId, failed.id);
    expect(retried.status).toBe(200);
    expect(retried.body.data.message).toMatchObject({
      id: failed.id,
      createdAt: failed.createdAt,
      smsMessage: { providerMessageId: expect.stringMatching(/^SM/), errorCode: null, errorMessage: null },
    });
    await socket.next('message_status_updated', (e) => e.data.message.id === failed.id && e.data.message.status === 'DELIVERED');
    const thread = (await readConversation(line.account, conversationId)).body.data.conversation;
    expect(thread.messages.filter((m) => m.body === 'Your table is ready.')).toHaveLength(1);
    expect(thread.messageCount).toBe(2);
    const toPhone = (await emulatorMessages(line.twilio.accountSid)).filter((m) => m.body === 'Your table is ready.');
    expect(toPhone).toHaveLength(1);

    // Sent now: nothing to retry; another company's user cannot even see it.
    const again = await retry(line.account, conversationId, failed.id);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('Only a sent message that failed can be sent again.');
    const foreign = await retry(stranger, conversationId, failed.id);
    expect({ status: foreign.status, message: foreign.body.error?.message }).toEqual({
      status: 404,
      message: 'Conversation not found',
    });
    expect((await retry(line.account, conversationId, 'no-such-message')).status).toBe(404);
  });
});

describe('webhooks lost on the way', () => {
  it('still follows a text to Delivered when one of its status callbacks never arrives', async () => {
    const socket = await listen(line);
    const conversationId = await conversationWith(line, socket, newPhone());
    await setMessageStepMs(20, line.twilio.accountSid);
    await setTwilioFaults(line.twilio.accountSid, { webhooks: { drop: 1 } });
    const sent = await sendText(line.account, conversationId, 'On our way.');
    const id = sent.body.data.message.id;
    await socket.next('message_status_updated', (e) => e.data.message.id === id && e.data.message.status === 'DELIVERED');
    // Twilio records an attempt once it is answered, which may be just after the product has published.
    const callbacks = async () =>
      (await emulatorMessages(line.twilio.accountSid)).find((m) => m.body === 'On our way.')?.callbacks.map((c) => c.status);
    await expect.poll(callbacks).toEqual([null, 200, 200]);
  });
});
