import { describe, expect, it, vi } from 'vitest';
import { keys } from '../../functions/lib/table';
import { newPhone, readConversation, sendText, smsLine, socketsClosedAfterEach, textIn, wholeThread } from '../support/sms';
import { companyCounts, holdItem } from '../support/table';
import { emulatorMessages } from '../support/twilio';

/**
 * Parallel replies into one conversation, with DynamoDB's transaction conflicts simulated
 * (local/dynamodb-proxy.ts, on unless DYNAMODB_CONFLICTS=off): every one accepted, stored once and
 * handed to Twilio once, however often its transaction was cancelled by another. Whether
 * the replies' own transactions overlap depends on the machine's load, so another writer holds the
 * conversation until one has been turned away.
 */

const listen = socketsClosedAfterEach();
const conflictsOn = process.env.DYNAMODB_CONFLICTS !== 'off';

const REPLIES = 20;

describe('agents replying at once', () => {
  it(`accepts ${REPLIES} parallel replies into one conversation and hands each to Twilio once`, async () => {
    const line = await smsLine();
    const socket = await listen(line);
    const phone = newPhone();
    expect((await textIn(line, { from: phone, body: 'Can anyone help?' })).status).toBe(200);
    const { data } = await socket.next('new_message', (e) => e.data.conversation.contact.phoneNumber === phone);
    const bodies = Array.from({ length: REPLIES }, (_, i) => `reply ${i + 1}`);
    const hold = conflictsOn ? await holdItem(keys.conversation(line.account.company.id, data.conversationId)) : undefined;

    const sending = Promise.all(bodies.map((body) => sendText(line.account, data.conversationId, body)));
    if (hold) {
      await vi.waitFor(async () => expect(await hold.turnedAway()).toBeGreaterThan(0), { timeout: 30_000, interval: 20 });
      await hold.release();
    }
    const replies = await sending;

    expect(replies.map((r) => r.status)).toEqual(bodies.map(() => 201));
    const sent = (await emulatorMessages(line.twilio.accountSid)).filter((m) => m.direction === 'outbound-api');
    expect(sent.map((m) => m.body).sort()).toEqual([...bodies].sort());
    const { messages: thread } = await wholeThread(line.account, data.conversationId);
    expect(
      thread
        .filter((m) => m.direction === 'OUTBOUND')
        .map((m) => m.body)
        .sort(),
    ).toEqual([...bodies].sort());
    const { body } = await readConversation(line.account, data.conversationId);
    expect(body.data.conversation.messageCount).toBe(REPLIES + 1);
    expect(await companyCounts(line.account.company.id)).toMatchObject({ smsReceived: 1, smsSent: REPLIES });
  });
});
