import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  conversationUpdateCounts,
  conversationUpdateItem,
  conversationWithMessage,
  messageByIdPutItem,
  messageTime,
} from './message-writes';
import type { ConversationRecord, MessageRecord } from './records';

/**
 * The rules a new message applies to its conversation, without a table: what the summary becomes,
 * which time a message gets, and the conditions that keep parallel writers from undoing each other.
 */

/** As read from the table: with its index entries, the assignee's among them. */
const conversation = {
  id: 'v1',
  companyId: 'c1',
  status: 'OPEN',
  contactId: 'k1',
  contactPhone: '+14155550191',
  channelId: 'ch1',
  channelIdentifier: '+14155550100',
  lastMessage: { direction: 'INBOUND', body: 'Hello?' },
  lastMessageAt: '2026-01-01T10:00:00.000Z',
  messageCount: 3,
  optedOut: false,
  createdAt: '2026-01-01T09:00:00.000Z',
  assignee: { id: 'u2', name: 'Grace' },
  GSI3PK: 'COMPANY#c1#CONVS#ASSIGNEE#u2#OPEN',
  GSI4PK: 'COMPANY#c1#CONVS#CHANNEL#ch1#OPEN',
} as ConversationRecord;

const message = (createdAt: string, body = 'On its way'): MessageRecord => ({
  id: 'm1',
  companyId: 'c1',
  conversationId: 'v1',
  direction: 'OUTBOUND',
  body,
  status: 'QUEUED',
  createdAt,
  sentBy: { id: 'u1', name: 'Ada' },
  providerStatus: null,
  providerMessageId: null,
  segments: 1,
  errorCode: null,
  errorMessage: null,
});

beforeEach(() => {
  vi.stubEnv('TABLE_NAME', 'table');
});

describe('conversationWithMessage', () => {
  it('a newer message becomes the summary, with who sent it, and is counted', () => {
    const after = conversationWithMessage(conversation, message('2026-01-01T10:05:00.000Z'));
    expect(after.lastMessage).toEqual({ direction: 'OUTBOUND', body: 'On its way', sentBy: { id: 'u1', name: 'Ada' } });
    expect(after.lastMessageAt).toBe('2026-01-01T10:05:00.000Z');
    expect(after.messageCount).toBe(4);
  });

  it('an older message, stored late by a slower writer, is counted but leaves the summary', () => {
    const after = conversationWithMessage(conversation, message('2026-01-01T09:59:00.000Z'));
    expect(after.lastMessage).toEqual(conversation.lastMessage);
    expect(after.lastMessageAt).toBe(conversation.lastMessageAt);
    expect(after.messageCount).toBe(4);
  });

  it('takes the changes the message brings (a reopening, an opt-out)', () => {
    const closed = { ...conversation, status: 'CLOSED' as const };
    const after = conversationWithMessage(closed, message('2026-01-01T10:05:00.000Z'), { status: 'OPEN', optedOut: true });
    expect(after.status).toBe('OPEN');
    expect(after.optedOut).toBe(true);
  });
});

describe('messageTime', () => {
  it('is now, unless now is the newest message’s own millisecond: then one later', () => {
    const now = new Date('2026-01-01T10:00:00.000Z');
    expect(messageTime({ lastMessageAt: '2026-01-01T09:00:00.000Z' }, now)).toBe('2026-01-01T10:00:00.000Z');
    expect(messageTime({ lastMessageAt: '2026-01-01T10:00:00.000Z' }, now)).toBe('2026-01-01T10:00:00.001Z');
    expect(messageTime(undefined, now)).toBe('2026-01-01T10:00:00.000Z');
  });
});

describe('conversationUpdateItem', () => {
  it('the newest message sets the summary and index entries, only over an older last message', () => {
    const newer = message('2026-01-01T10:05:00.000Z');
    const update = conversationUpdateItem(conversation, newer, conversationWithMessage(conversation, newer)).Update;
    expect(update?.UpdateExpression).toContain('lastMessage = :lastMessage');
    expect(update?.UpdateExpression).toContain('GSI1SK = :gsi1sk');
    expect(update?.ConditionExpression).toBe(
      '#status = :statusBefore AND lastMessageAt < :at AND GSI3PK = :assigneeEntryBefore AND GSI4PK = :channelEntryBefore',
    );
    expect(update?.ExpressionAttributeValues?.[':gsi1sk']).toBe('2026-01-01T10:05:00.000Z#v1');
    expect(update?.ExpressionAttributeValues).toMatchObject({
      ':gsi3pk': 'COMPANY#c1#CONVS#ASSIGNEE#u2#OPEN',
      ':gsi3sk': '2026-01-01T10:05:00.000Z#v1',
      ':gsi4pk': 'COMPANY#c1#CONVS#CHANNEL#ch1#OPEN',
      ':gsi4sk': '2026-01-01T10:05:00.000Z#v1',
      ':assigneeEntryBefore': 'COMPANY#c1#CONVS#ASSIGNEE#u2#OPEN',
      ':channelEntryBefore': 'COMPANY#c1#CONVS#CHANNEL#ch1#OPEN',
    });
  });

  it('an older message only adds to the count, and only while a newer one is the last', () => {
    const older = message('2026-01-01T09:59:00.000Z');
    const update = conversationUpdateItem(conversation, older, conversationWithMessage(conversation, older)).Update;
    expect(update?.UpdateExpression).toBe('ADD messageCount :one');
    expect(update?.ConditionExpression).toBe('#status = :statusBefore AND lastMessageAt > :at');
  });

  it('an older message that reopens writes the index entries over the time it read, no later one', () => {
    const closed = { ...conversation, status: 'CLOSED' as const, GSI4PK: 'COMPANY#c1#CONVS#CHANNEL#ch1#CLOSED' };
    const older = message('2026-01-01T09:59:00.000Z');
    const after = conversationWithMessage(closed, older, { status: 'OPEN' });
    const update = conversationUpdateItem(closed, older, after).Update;
    expect(update?.UpdateExpression).toContain('#status = :status');
    expect(update?.UpdateExpression).not.toContain('lastMessage = :lastMessage');
    expect(update?.ConditionExpression).toBe(
      '#status = :statusBefore AND lastMessageAt = :lastMessageAt AND GSI3PK = :assigneeEntryBefore AND GSI4PK = :channelEntryBefore',
    );
    expect(update?.ExpressionAttributeValues?.[':statusBefore']).toBe('CLOSED');
  });

  it('on a conversation stored before assignment, writes its assignee entry only while it still has none', () => {
    const {
      GSI3PK: _,
      GSI4PK: ___,
      assignee: __,
      ...stored
    } = conversation as ConversationRecord & { GSI3PK: string; GSI4PK: string };
    const newer = message('2026-01-01T10:05:00.000Z');
    const update = conversationUpdateItem(stored, newer, conversationWithMessage(stored, newer)).Update;
    expect(update?.ConditionExpression).toBe(
      '#status = :statusBefore AND lastMessageAt < :at AND attribute_not_exists(GSI3PK) AND attribute_not_exists(GSI4PK)',
    );
    expect(update?.ExpressionAttributeValues?.[':gsi3pk']).toBe('COMPANY#c1#CONVS#ASSIGNEE#NONE#OPEN');
  });
});

describe('conversationUpdateCounts', () => {
  const closed = {
    ...conversation,
    status: 'CLOSED' as const,
    GSI3PK: 'COMPANY#c1#CONVS#ASSIGNEE#u2#CLOSED',
    GSI4PK: 'COMPANY#c1#CONVS#CHANNEL#ch1#CLOSED',
  };

  it('a reopening moves the conversation from its assignee’s and its channel’s closed counts to the open ones', () => {
    const newer = message('2026-01-01T10:05:00.000Z');
    expect(conversationUpdateCounts(closed, newer, conversationWithMessage(closed, newer, { status: 'OPEN' }))).toEqual({
      'assignedClosed#u2': -1,
      'assignedOpen#u2': 1,
      'channelClosed#ch1': -1,
      'channelOpen#ch1': 1,
      'assignedChannelClosed#u2#ch1': -1,
      'assignedChannelOpen#u2#ch1': 1,
    });
  });

  it('a newer message moves nothing, and an older one writes no entry at all', () => {
    const newer = message('2026-01-01T10:05:00.000Z');
    const older = message('2026-01-01T09:59:00.000Z');
    expect(conversationUpdateCounts(conversation, newer, conversationWithMessage(conversation, newer))).toEqual({});
    expect(conversationUpdateCounts(conversation, older, conversationWithMessage(conversation, older))).toEqual({});
  });

  it('counts a conversation stored before assignment when its entry is first written', () => {
    const {
      GSI3PK: _,
      GSI4PK: ___,
      assignee: __,
      ...stored
    } = conversation as ConversationRecord & { GSI3PK: string; GSI4PK: string };
    const newer = message('2026-01-01T10:05:00.000Z');
    const older = message('2026-01-01T09:59:00.000Z');
    expect(conversationUpdateCounts(stored, newer, conversationWithMessage(stored, newer))).toEqual({
      'assignedOpen#NONE': 1,
      'channelOpen#ch1': 1,
      'assignedChannelOpen#NONE#ch1': 1,
    });
    expect(conversationUpdateCounts(stored, older, conversationWithMessage(stored, older))).toEqual({});
  });

  it('counts a conversation stored before the channel index in its channel once its entry is first written', () => {
    const { GSI4PK: _, ...stored } = conversation as ConversationRecord & { GSI4PK: string };
    const newer = message('2026-01-01T10:05:00.000Z');
    expect(conversationUpdateCounts(stored, newer, conversationWithMessage(stored, newer))).toEqual({
      'channelOpen#ch1': 1,
      'assignedChannelOpen#u2#ch1': 1,
    });
    const update = conversationUpdateItem(stored, newer, conversationWithMessage(stored, newer)).Update;
    expect(update?.ConditionExpression).toContain('GSI3PK = :assigneeEntryBefore AND attribute_not_exists(GSI4PK)');
  });
});

describe('inbound counters (unread per member)', () => {
  const inbound = (createdAt: string): MessageRecord => ({
    ...message(createdAt, 'Hi'),
    direction: 'INBOUND',
    status: 'RECEIVED',
  });

  it('an inbound text adds one to inboundCount and is the latest inbound time when newest', () => {
    const newer = inbound('2026-01-01T10:05:00.000Z');
    const after = conversationWithMessage({ ...conversation, inboundCount: 2 }, newer);
    expect(after).toMatchObject({ inboundCount: 3, lastInboundAt: '2026-01-01T10:05:00.000Z' });
    const update = conversationUpdateItem(conversation, newer, after).Update;
    expect(update?.UpdateExpression).toContain('lastInboundAt = :at');
    expect(update?.UpdateExpression).toMatch(/ADD messageCount :one, inboundCount :one$/);
  });

  it('an older inbound text counts but only fills a missing latest time; an outbound one counts nothing', () => {
    const older = inbound('2026-01-01T09:59:00.000Z');
    const after = conversationWithMessage({ ...conversation, lastInboundAt: '2026-01-01T10:00:00.000Z' }, older);
    expect(after).toMatchObject({ inboundCount: 1, lastInboundAt: '2026-01-01T10:00:00.000Z' });
    const update = conversationUpdateItem(conversation, older, after).Update;
    expect(update?.UpdateExpression).toBe(
      'SET lastInboundAt = if_not_exists(lastInboundAt, :at) ADD messageCount :one, inboundCount :one',
    );

    const reply = message('2026-01-01T10:05:00.000Z');
    expect(conversationWithMessage(conversation, reply).inboundCount).toBeUndefined();
    expect(
      conversationUpdateItem(conversation, reply, conversationWithMessage(conversation, reply)).Update?.UpdateExpression,
    ).not.toContain('inbound');
  });
});

describe('messageByIdPutItem', () => {
  it('leads from the id to the message’s key, and expires with the message', () => {
    const item = messageByIdPutItem({ ...message('2026-01-01T10:05:00.000Z'), expiresAt: 1_800_000_000 }).Put?.Item;
    expect(item).toMatchObject({
      PK: 'COMPANY#c1#CONV#v1',
      SK: 'MSGID#m1',
      createdAt: '2026-01-01T10:05:00.000Z',
      expiresAt: 1_800_000_000,
    });
  });
});
