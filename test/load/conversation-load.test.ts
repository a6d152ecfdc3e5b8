import { describe, expect, it } from 'vitest';
import type { Message } from '../../shared/contract/conversations';
import { callRoute } from '../support/api';
import { endpoints } from '../support/endpoints';
import { EMPTY_TWIML, newPhone, sendText, smsLine, socketsClosedAfterEach, textIn, wholeThread } from '../support/sms';
import { companyCounts } from '../support/table';

/**
 * One conversation under load: a phone's texts arrive all at once (the first of them creates the
 * conversation) while an agent replies in between. Every text must be stored once, in one
 * conversation, with counters that add up.
 */

const listen = socketsClosedAfterEach();

/**
 * Texts of one phone at once. DynamoDB takes one transaction at a time on an item, so every text of a
 * conversation waits its turn on the conversation's item (conflicts simulated, local/dynamodb-proxy.ts):
 * 20 at once, as many as test/load/parallel-replies.test.ts's parallel replies; how fast a company's texts go in is the peak
 * benchmark's (test/peak), not a test's.
 */
const INBOUND = 20;
const REPLIES = 10;
/** Texts that race to create the conversation. */
const OPENING = 5;

describe('one conversation under load', () => {
  it(`stores ${INBOUND} parallel texts and ${REPLIES} interleaved replies once each, in order, with counters that add up`, async () => {
    const line = await smsLine();
    const socket = await listen(line);
    const phone = newPhone();
    const inboundBodies = Array.from({ length: INBOUND }, (_, i) => `text ${i + 1}`);
    const replyBodies = Array.from({ length: REPLIES }, (_, i) => `reply ${i + 1}`);

    // The first texts open the conversation together; the rest arrive while the agent replies.
    const opening = inboundBodies.slice(0, OPENING);
    const inbound = Promise.all(opening.map((body) => textIn(line, { from: phone, body })));
    const first = await socket.next('new_message', (e) => e.data.conversation.contact.phoneNumber === phone);
    const conversationId = first.data.conversationId;
    const [answers, replies] = await Promise.all([
      Promise.all([inbound, ...inboundBodies.slice(OPENING).map((body) => textIn(line, { from: phone, body }))]),
      Promise.all(replyBodies.map((body) => sendText(line.account, conversationId, body))),
    ]).then(([a, r]) => [a.flat(), r] as const);

    expect(answers.map((a) => a.status)).toEqual(inboundBodies.map(() => 200));
    expect(answers.every((a) => a.text === EMPTY_TWIML)).toBe(true);
    expect(replies.map((r) => r.status)).toEqual(replyBodies.map(() => 201));

    const { conversation, messages } = await wholeThread(line.account, conversationId);
    expect(messages.map((m) => m.body).sort()).toEqual([...inboundBodies, ...replyBodies].sort());
    expect(new Set(messages.map((m) => m.id)).size).toBe(INBOUND + REPLIES);
    const times = messages.map((m) => m.createdAt);
    expect(times).toEqual([...times].sort());
    const newest = messages.at(-1) as Message;
    expect(conversation).toMatchObject({
      id: conversationId,
      status: 'OPEN',
      messageCount: INBOUND + REPLIES,
      lastMessage: { direction: newest.direction, body: newest.body },
      lastMessageAt: newest.createdAt,
    });

    // One conversation, one contact, counted once.
    const list = await callRoute(endpoints.listConversations, {
      query: { status: 'BOTH' },
      token: line.account.tokens.accessToken,
    });
    expect(list.body.data.conversations.map((c) => c.id)).toEqual([conversationId]);
    const contacts = await callRoute(endpoints.listContacts, { token: line.account.tokens.accessToken });
    expect(contacts.body.data.contacts).toEqual([expect.objectContaining({ phoneNumber: phone, conversationCount: 1 })]);

    // The company's counters: the company item and its shards, summed as the admin overview sums them.
    expect(await companyCounts(line.account.company.id)).toEqual({
      smsReceived: INBOUND,
      smsSent: REPLIES,
      openConversations: 1,
      closedConversations: 0,
    });
  });
});
