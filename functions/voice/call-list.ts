import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Call, CallStatus } from '../../shared/contract/calls';
import type { ContactRecord } from '../conversations/records';
import { badRequest } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { GSI1, keys } from '../lib/table';
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
] as const satisfies readonly (keyof CallRecord)[];

export interface CallListQuery {
  status?: CallStatus | '';
  dateFrom?: string;
  dateTo?: string;
  limit: number;
}

/** A bound as the sort keys write times (ISO, UTC); a bare date as `to` means the whole of that day. */
function bound(value: string | undefined, end: boolean): string | undefined {
  if (!value) return undefined;
  const date = new Date(Date.parse(value) + (end && /^\d{4}-\d{2}-\d{2}$/.test(value) ? 86_400_000 - 1 : 0));
  return date.toISOString();
}

/**
 * Call History (GET /api/v1/calls): newest first, one Query on the time range — the company's call
 * items (all statuses) or the status's GSI1 partition — then one BatchGet for the contacts as they
 * are now. Its cost is the page's, whatever the company's history.
 */
export async function listCalls(companyId: string, query: CallListQuery): Promise<Call[]> {
  // Sort keys begin with the ISO time: '0' sorts before every one (an empty key value is not allowed).
  const from = bound(query.dateFrom, false) ?? '0';
  const to = bound(query.dateTo, true) ?? '9999';
  if (from > to) throw badRequest('dateFrom must not be after dateTo', { fields: { dateFrom: 'must not be after dateTo' } });
  const request = query.status
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
  const found = new Map<string, ContactRecord>();
  let pending: Record<string, unknown>[] = [...new Set(ids)].map((id) => keys.contact(companyId, id));
  // BatchGet may leave keys unprocessed under load: ask again for those.
  for (let attempt = 0; pending.length > 0 && attempt < 5; attempt++) {
    const TableName = tableName();
    const res = await db.send(
      new BatchGetCommand({
        RequestItems: {
          [TableName]: { Keys: pending, ProjectionExpression: 'id, #name', ExpressionAttributeNames: { '#name': 'name' } },
        },
      }),
    );
    for (const item of (res.Responses?.[TableName] ?? []) as ContactRecord[]) found.set(item.id, item);
    pending = (res.UnprocessedKeys?.[TableName]?.Keys ?? []) as Record<string, unknown>[];
  }
  return found;
}
