import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DELIVERY_SUMMARY_DAYS } from '../../shared/constants';
import type { DeliverySummary } from '../../shared/contract/channel-health';
import type { MessageStatus } from '../../shared/contract/conversations';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { epochSeconds, keys } from '../lib/table';
import { messageErrorAdvice } from '../twilio/message-errors';

/**
 * A channel's delivery summary: counters per channel and day (keys.channelDelivery), added
 * to when a text is handed to Twilio and when its status callback settles it, so the summary is one
 * query of at most DELIVERY_SUMMARY_DAYS small items, never a scan of messages. A text counts in the
 * day it was written (its createdAt), by its latest outcome: a failure that a later delivery settles
 * moves from one counter to the other, and a retried failure leaves the failed count.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** Outcomes with a counter of their own; the other statuses are on the way to one of them. */
const OUTCOMES = { DELIVERED: 'delivered', FAILED: 'failed', UNDELIVERED: 'undelivered' } as const;
type Outcome = keyof typeof OUTCOMES;
const isOutcome = (status: MessageStatus | undefined): status is Outcome => status !== undefined && status in OUTCOMES;
/** Error codes are counted in attributes of their own (`error_30003`), so ADD needs no map to exist. */
const ERROR_PREFIX = 'error_';

const dayOf = (iso: string) => iso.slice(0, 10);

/** An outbound text as stored; one without a channel (stored before it was kept) is not counted. */
export interface CountedMessage {
  companyId: string;
  channelId?: string;
  createdAt: string;
}

/** Adds to (or takes from) the counters of the message's day; kept a day past the summary's reach. */
async function add(message: CountedMessage, changes: Record<string, number>): Promise<void> {
  const entries = Object.entries(changes).filter(([, n]) => n !== 0);
  if (entries.length === 0 || !message.channelId) return;
  const day = dayOf(message.createdAt);
  const expiresAt = epochSeconds(new Date(Date.parse(`${day}T00:00:00Z`) + (DELIVERY_SUMMARY_DAYS + 1) * DAY_MS));
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.channelDelivery(message.companyId, message.channelId, day),
      UpdateExpression: `SET entity = :entity, channelId = :channelId, #day = :day, expiresAt = :expiresAt ADD ${entries
        .map((_, i) => `#n${i} :n${i}`)
        .join(', ')}`,
      ExpressionAttributeNames: { '#day': 'day', ...Object.fromEntries(entries.map(([name], i) => [`#n${i}`, name])) },
      ExpressionAttributeValues: {
        ':entity': 'CHANNEL_DELIVERY',
        ':channelId': message.channelId,
        ':day': day,
        ':expiresAt': expiresAt,
        ...Object.fromEntries(entries.map(([, n], i) => [`:n${i}`, n])),
      },
    }),
  );
}

/** A text was handed to Twilio for the first time. */
export function countSent(message: CountedMessage): Promise<void> {
  return add(message, { sent: 1 });
}

/**
 * A text's status moved from `previous` to `next` (the move the message's conditional update made, so
 * each is counted once): the new outcome and its error code added, a replaced outcome taken away.
 */
export function countStatusChange(
  message: CountedMessage,
  previous: { status: MessageStatus | undefined; errorCode: number | null },
  next: { status: MessageStatus; errorCode: number | null },
): Promise<void> {
  const changes: Record<string, number> = {};
  const change = (status: MessageStatus | undefined, errorCode: number | null, by: number) => {
    if (!isOutcome(status)) return;
    changes[OUTCOMES[status]] = (changes[OUTCOMES[status]] ?? 0) + by;
    if (errorCode) changes[`${ERROR_PREFIX}${errorCode}`] = (changes[`${ERROR_PREFIX}${errorCode}`] ?? 0) + by;
  };
  if (isOutcome(previous.status) && previous.status !== next.status) change(previous.status, previous.errorCode, -1);
  if (previous.status !== next.status) change(next.status, next.errorCode, 1);
  return add(message, changes);
}

/** The summary of the DELIVERY_SUMMARY_DAYS days up to `now` (today included), most frequent errors first. */
export async function deliverySummary(companyId: string, channelId: string, now = new Date()): Promise<DeliverySummary> {
  const today = dayOf(now.toISOString());
  const since = dayOf(new Date(Date.parse(`${today}T00:00:00Z`) - (DELIVERY_SUMMARY_DAYS - 1) * DAY_MS).toISOString());
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': keys.channelDelivery(companyId, channelId, since).PK,
        ':from': keys.channelDelivery(companyId, channelId, since).SK,
        ':to': keys.channelDelivery(companyId, channelId, today).SK,
      },
    }),
  );
  const total = (name: string) => Items.reduce((n, item) => n + (Number(item[name]) || 0), 0);
  const errorCounts = new Map<number, number>();
  for (const item of Items) {
    for (const [name, value] of Object.entries(item)) {
      if (!name.startsWith(ERROR_PREFIX)) continue;
      const code = Number(name.slice(ERROR_PREFIX.length));
      errorCounts.set(code, (errorCounts.get(code) ?? 0) + (Number(value) || 0));
    }
  }
  return {
    since: `${since}T00:00:00.000Z`,
    sent: total('sent'),
    delivered: total(OUTCOMES.DELIVERED),
    failed: total(OUTCOMES.FAILED),
    undelivered: total(OUTCOMES.UNDELIVERED),
    errors: [...errorCounts]
      .filter(([, count]) => count > 0)
      .sort(([codeA, a], [codeB, b]) => b - a || codeA - codeB)
      .map(([code, count]) => ({ code, count, ...messageErrorAdvice(code) })),
  };
}
