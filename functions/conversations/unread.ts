import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { UserRecord } from '../auth/accounts';
import { batchGetAll } from '../lib/batch-get';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import type { ConversationRecord } from './records';

/**
 * Unread per member, without a write per text per member: the conversation counts its
 * inbound texts (`inboundCount`, `lastInboundAt`, kept by the transaction that stores each text), and
 * a member's marker (keys.conversationRead) holds the count they had read and the notes mentioning
 * them since. The marker is written when they read the conversation or are mentioned, never per text.
 */

/** The marker item's fields (besides its keys). */
export interface ReadMarkerRecord {
  companyId: string;
  conversationId: string;
  userId: string;
  /** The conversation's inboundCount when the member last read it (or when first mentioned, never having read it). */
  readInboundCount: number;
  /** Notes mentioning the member since they last read the conversation. */
  mentions: number;
  /** When they last read it; null for a marker made by a mention alone. */
  readAt: string | null;
}

/** What the rule reads of a conversation: a projection of the list's window is enough. */
export type UnreadCounters = Pick<ConversationRecord, 'inboundCount' | 'lastInboundAt'>;

/**
 * The rule: the inbound texts since the member's marker, plus the mentions of them since. Without a
 * marker, every inbound text is unread when the latest came after the member joined the company (a
 * new member is not handed the company's whole history as unread); a conversation stored before the
 * counters were kept has none.
 */
export function unreadCount(
  conversation: UnreadCounters,
  marker: Pick<ReadMarkerRecord, 'readInboundCount' | 'mentions'> | undefined,
  joinedAt: string,
): number {
  const inbound = conversation.inboundCount ?? 0;
  if (marker) return Math.max(0, inbound - marker.readInboundCount) + marker.mentions;
  return conversation.lastInboundAt !== undefined && conversation.lastInboundAt > joinedAt ? inbound : 0;
}

/** The reader's unread count of each conversation (by id): one BatchGet per 100 markers, and the reader's user record. */
export async function unreadCountsFor(
  companyId: string,
  userId: string,
  conversations: readonly (UnreadCounters & Pick<ConversationRecord, 'id'>)[],
): Promise<Map<string, number>> {
  if (conversations.length === 0) return new Map();
  const [joinedAt, markers] = await Promise.all([
    joinedAtOf(companyId, userId),
    batchGetAll<ReadMarkerRecord>(conversations.map((c) => keys.conversationRead(companyId, c.id, userId))),
  ]);
  const markerOf = new Map(markers.map((m) => [m.conversationId, m]));
  return new Map(conversations.map((c) => [c.id, unreadCount(c, markerOf.get(c.id), joinedAt)]));
}

/** When the member joined the company (their user record's creation). */
async function joinedAtOf(companyId: string, userId: string): Promise<string> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.user(companyId, userId), ProjectionExpression: 'createdAt' }),
  );
  // The request came from this user, so the record exists; were it gone, nothing would be new to them.
  return (Item as Pick<UserRecord, 'createdAt'> | undefined)?.createdAt ?? '9999';
}
