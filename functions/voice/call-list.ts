import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Call, CallStatus } from '../../shared/contract/calls';
import type { ContactRecord } from '../conversations/records';
import { badRequest } from '../lib/app-error';
import { batchGetAll } from '../lib/batch-get';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { GSI1, GSI2, keys } from '../lib/table';
import { type CallRecord, toCall } from './call-records';

const LISTED = [
  'id',
  'direction',
  'callStatus',
  'contactId',
  'contactPhoneNumber',
  'channelId',
  'channelPhoneNumber',
  'durationSeconds',
  'createdAt',
  'providerCallId',
  'answeredBy',
  'failureReason',
  'missedReason',
  'voicemail',
] as const satisfies readonly (keyof CallRecord)[];

export interface CallListQuery {
  status?: CallStatus | '';
  dateFrom?: string;
  dateTo?: string;
  limit: number;
  /** 'true': only calls with a voicemail. */
  voicemail?: 'true' | 'false';
}

/** A bound as the sort keys write times (ISO, UTC); a bare date as `to` means the whole of that day. */
function bound(value: string | undefined, end: boolean): string | undefined {
  if (!value) return undefined;
  const date = new Date(Date.parse(value) + (end && /^\d{4}-\d{2}-\d{2}$/.test(value) ? 86_400_000 - 1 : 0));
  return date.toISOString();
}

/**
 * Call History (GET /api/v1/calls): newest first, one Query on the time range — the company's call
 * items (all statuses), the status's GSI1 partition, or the sparse GSI2 partition of calls with a
 * voicemail — then the contacts as they are now, every one
 * of them (lib/batch-get). Its cost is the page's, whatever the company's history.
 */
export async function listCalls(companyId: string, query: CallListQuery): Promise<Call[]> {
  // Sort keys begin with the ISO time: '0' sorts before every one (an empty key value is not allowed).
  const from = bound(query.dateFrom, false) ?? '0';
  const to = bound(query.dateTo, true) ?? '9999';
  if (from > to) throw badRequest('dateFrom must not be after dateTo', { fields: { dateFrom: 'must not be after dateTo' } });
  // A voicemail is only ever left on a NO_ANSWER call: with another status, there is none to list.
  if (query.voicemail === 'true' && query.status && query.status !== 'NO_ANSWER') return [];
  const request =
    query.voicemail === 'true'
      ? {
          IndexName: GSI2.indexName,
          KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
          ExpressionAttributeNames: { '#pk': GSI2.partitionKey, '#sk': GSI2.sortKey },
          ExpressionAttributeValues: {
            ':pk': keys.callWithVoicemail(companyId, '', '').GSI2PK,
            ':from': from,
            ':to': `${to}~`,
          },
        }
      : query.status
        ? {
            IndexName: GSI1.indexName,
            KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
            ExpressionAttributeNames: { '#pk': GSI1.partitionKey, '#sk': GSI1.sortKey },
            ExpressionAttributeValues: {
              ':pk': keys.callByStatus(companyId, query.status, '', '').GSI1PK,
              ':from': from,
              ':to': `${to}~`,
            },
          }
        : (() => {
            const range = keys.callsBetween(companyId, from, to);
            return {
              KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
              ExpressionAttributeValues: { ':pk': range.PK, ':from': range.SKFrom, ':to': range.SKTo },
            };
          })();
  // Only what the list shows: the facts behind the status stay in the table.
  const names = Object.fromEntries(LISTED.map((field, i) => [`#f${i}`, field]));
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...request,
      ExpressionAttributeNames: { ...('ExpressionAttributeNames' in request ? request.ExpressionAttributeNames : {}), ...names },
      ProjectionExpression: Object.keys(names).join(', '),
      ScanIndexForward: false,
      Limit: query.limit,
    }),
  );
  const calls = (Items ?? []) as CallRecord[];
  const contacts = await contactsById(
    companyId,
    calls.map((c) => c.contactId).filter((id): id is string => Boolean(id)),
  );
  return calls.map((c) => toCall(c, c.contactId ? contacts.get(c.contactId) : undefined));
}

async function contactsById(companyId: string, ids: string[]): Promise<Map<string, ContactRecord>> {
  const contacts = await batchGetAll<ContactRecord>(
    ids.map((id) => keys.contact(companyId, id)),
    { ProjectionExpression: 'id, #name', ExpressionAttributeNames: { '#name': 'name' } },
  );
  return new Map(contacts.map((contact) => [contact.id, contact]));
}
