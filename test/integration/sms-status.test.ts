import { describe, expect, it } from 'vitest';
import type { Message } from '../../shared/contract/conversations';
import type { Socket } from '../support/realtime';
import {
  conversationWith,
  EMPTY_TWIML,
  newPhone,
  postWebhook,
  readConversation,
  type SmsLine,
  sendText,
  smsLine,
  socketsClosedAfterEach,
  statusParams,
} from '../support/sms';
import { emulatorMessages, setMessageStepMs } from '../support/twilio';

/**
 * Status callbacks posted by the test itself, signed with the account's auth token, to the URL the
 * platform gave Twilio for the message. The emulator's own carrier is slowed to one step a minute
 * for the account, so within a test only these callbacks arrive.
 */

const listen = socketsClosedAfterEach();

interface Sent {
  line: SmsLine;
  socket: Socket;
  conversationId: string;
  message: Message;
  /** The StatusCallback Twilio holds for the message. */
  statusCallback: string;
}

async function quietLine() {
  const line = await smsLine();
  await setMessageStepMs(60_000, line.twilio.accountSid);
  const socket = await listen(line);
  const conversationId = await conversationWith(line, socket, newPhone());
  return { line, socket, conversationId };
}

async function send(line: SmsLine, socket: Socket, conversationId: string, body = 'On its way'): Promise<Sent> {
  const res = await sendText(line.account, conversationId, body);
  if (res.status !== 201) throw new Error(`send: ${res.status} ${JSON.stringify(res.body)}`);
  const message = res.body.data.message;
  const held = (await emulatorMessages(line.twilio.accountSid)).find((m) => m.sid === message.smsMessage.providerMessageId);
  if (!held) throw new Error('Twilio has no such message');
  return { line, socket, conversationId, message, statusCallback: held.status_callback };
}

/** Twilio's status callback parameters for the message. */
function callback(sent: Sent, status: string, extra: Record<string, string> = {}, url = sent.statusCallback) {
  const sid = sent.message.smsMessage.providerMessageId as string;
  return postWebhook(url, statusParams(sent.line, sid, status, extra), { authToken: sent.line.twilio.authToken });
}

async function shown(sent: Pick<Sent, 'line' | 'conversationId' | 'message'>): Promise<Message | undefined> {
  const read = await readConversation(sent.line.account, sent.conversationId);
  return read.body.data.conversation.messages.find((m) => m.id === sent.message.id);
}

const PERMUTATIONS = [
  ['queued', 'sent', 'delivered'],
  ['queued', 'delivered', 'sent'],
  ['sent', 'queued', 'delivered'],
  ['sent', 'delivered', 'queued'],
  ['delivered', 'queued', 'sent'],
  ['delivered', 'sent', 'queued'],
];

describe('status callbacks', () => {
  it('end Delivered whatever order queued, sent and delivered arrive in', async () => {
    const { line, socket, conversationId } = await quietLine();
    for (const order of PERMUTATIONS) {
      const sent = await send(line, socket, conversationId, order.join(' → '));
      for (const status of order) {
        expect(await callback(sent, status)).toEqual({ status: 200, contentType: 'text/xml; charset=utf-8', text: EMPTY_TWIML });
      }
      expect(await shown(sent), order.join(' → ')).toMatchObject({
        status: 'DELIVERED',
        smsMessage: { providerStatus: 'delivered' },
      });
    }
  });

  it('never move a message back: failed after delivered stays Delivered, sent after undelivered stays Undelivered', async () => {
    const { line, socket, conversationId } = await quietLine();
    const delivered = await send(line, socket, conversationId, 'one');
    await callback(delivered, 'delivered');
    await callback(delivered, 'failed', { ErrorCode: '30008' });
    await callback(delivered, 'delivered');
    expect(await shown(delivered)).toMatchObject({ status: 'DELIVERED', smsMessage: { errorCode: null, errorMessage: null } });

    const undelivered = await send(line, socket, conversationId, 'two');
    await callback(undelivered, 'undelivered', { ErrorCode: '30003' });
    await callback(undelivered, 'sent');
    await callback(undelivered, 'failed', { ErrorCode: '30008' });
    expect(await shown(undelivered)).toMatchObject({
      status: 'UNDELIVERED',
      smsMessage: {
        providerStatus: 'undelivered',
        errorCode: 30003,
        errorMessage: 'Unreachable destination handset: the phone is off or out of coverage.',
      },
    });

    // Each change was told once; the callbacks that changed nothing were not.
    await socket.beat();
    const told = socket.log
      .filter((e) => e.type === 'message_status_updated')
      .map((e) => (e.data as { message: Message }).message)
      .map((m) => `${m.body} ${m.status}`);
    expect(told).toEqual(['one DELIVERED', 'two UNDELIVERED']);
  });

  it('find the message by its MessageSid when the callback URL carries no place', async () => {
    const { line, socket, conversationId } = await quietLine();
    const sent = await send(line, socket, conversationId);
    const plain = sent.statusCallback.replace(/\?.*$/, '');
    expect(await callback(sent, 'sent', { NumSegments: '2' }, plain)).toMatchObject({ status: 200 });
    const updated = await socket.next('message_status_updated', (e) => e.data.message.id === sent.message.id);
    expect(updated.data).toMatchObject({ conversationId, message: { status: 'SENT', smsMessage: { segments: 2 } } });
    expect(await shown(sent)).toMatchObject({ status: 'SENT', smsMessage: { providerStatus: 'sent', segments: 2 } });
  });

  it('mark the conversation opted out on a 21610 failure', async () => {
    const { line, socket, conversationId } = await quietLine();
    const sent = await send(line, socket, conversationId);
    await callback(sent, 'failed', { ErrorCode: '21610' });
    expect(await shown(sent)).toMatchObject({
      status: 'FAILED',
      smsMessage: {
        errorCode: 21610,
        errorMessage: 'The contact opted out of texts from this number (they replied STOP). They can reply START to opt back in.',
      },
    });
    expect((await readConversation(line.account, conversationId)).body.data.conversation.optedOut).toBe(true);
    expect((await sendText(line.account, conversationId, 'hello?')).status).toBe(409);
  });

  it('refuse a forged callback with 403 and a callback without a status with 400; an unknown status changes nothing', async () => {
    const { line, socket, conversationId } = await quietLine();
    const sent = await send(line, socket, conversationId);
    const sid = sent.message.smsMessage.providerMessageId as string;
    const forged = await postWebhook(
      sent.statusCallback,
      { MessageSid: sid, MessageStatus: 'delivered' },
      { authToken: 'f'.repeat(32) },
    );
    expect(forged.status).toBe(403);
    const noStatus = await postWebhook(sent.statusCallback, { MessageSid: sid }, { authToken: line.twilio.authToken });
    expect(noStatus.status).toBe(400);
    expect(JSON.parse(noStatus.text).error.details.fields).toEqual({ MessageStatus: 'MessageStatus is required' });
    expect(await callback(sent, 'teleported')).toMatchObject({ status: 200 });
    expect(await shown(sent)).toMatchObject({ status: sent.message.status });
  });

  it('of one company never touch another company’s message', async () => {
    const mine = await quietLine();
    const theirs = await quietLine();
    const their = await send(theirs.line, theirs.socket, theirs.conversationId);
    // Their message's place in the query, and its sid, signed for my webhook with my token.
    const myUrl = (await send(mine.line, mine.socket, mine.conversationId)).statusCallback.replace(/\?.*$/, '');
    const asMine = { ...their, line: mine.line };
    expect(await callback(asMine, 'delivered', {}, `${myUrl}?${new URL(their.statusCallback).searchParams}`)).toMatchObject({
      status: 200,
    });
    expect(await callback(asMine, 'delivered', {}, myUrl)).toMatchObject({ status: 200 });
    expect(await shown(their)).toMatchObject({
      status: their.message.status,
      smsMessage: { providerStatus: their.message.smsMessage.providerStatus },
    });
  });
});
