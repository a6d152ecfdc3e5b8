import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Call, CallStatus } from '../../shared/contract/calls';
import type { ContactRecord } from '../conversations/records';
import { badRequest } from '../lib/app-error';
import { batchGetAll } from '../lib/batch-get';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { queryPages } from '../lib/query';
import { GSI1, GSI2, GSI4, keys } from '../lib/table';
import { type LoadedViewer, visibleChannelIds } from '../team/visibility';
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
  'recording',
  'agentLegs',
  'heldSince',
  'holdSeconds',
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

/** Only what the list shows: the facts behind the status stay in the table. */
const NAMES = Object.fromEntries(LISTED.map((field, i) => [`#f${i}`, field]));
const PROJECTION = Object.keys(NAMES).join(', ');

/**
 * Call History (GET /api/v1/calls): newest first. Owners and admins: one Query on the time range —
 * the company's call items (all statuses), the status's GSI1 partition, or the sparse GSI2 partition
 * of calls with a voicemail. An agent (docs/product.md: Who sees what): one Query per channel they see
 * (GSI4, keys.callByChannel) and one of the calls they placed or answered (keys.callHandled), each
 * the page's newest, merged. Then the contacts as they are now, every one of them (lib/batch-get).
 * Its cost is the page's times the agent's channels, whatever the company's history.
 */
export async function listCalls(companyId: string, query: CallListQuery, viewer: LoadedViewer): Promise<Call[]> {
  // Sort keys begin with the ISO time: '0' sorts before every one (an empty key value is not allowed).
  const from = bound(query.dateFrom, false) ?? '0';
  const to = bound(query.dateTo, true) ?? '9999';
  if (from > to) throw badRequest('dateFrom must not be after dateTo', { fields: { dateFrom: 'must not be after dateTo' } });
  // A voicemail is only ever left on a NO_ANSWER call: with another status, there is none to list.
  if (query.voicemail === 'true' && query.status && query.status !== 'NO_ANSWER') return [];
  const channels = visibleChannelIds(viewer);
  const calls =
    channels === 'ALL'
      ? await companyCalls(companyId, query, from, to)
      : await viewerCalls(companyId, viewer.userId, channels, query, from, to);
  const contacts = await contactsById(
    companyId,
    calls.map((c) => c.contactId).filter((id): id is string => Boolean(id)),
  );
  return calls.map((c) => toCall(c, c.contactId ? contacts.get(c.contactId) : undefined));
}

/** The whole company's page: one Query of the partition that holds exactly the filter's calls. */
async function companyCalls(companyId: string, query: CallListQuery, from: string, to: string): Promise<CallRecord[]> {
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
  const { Items } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      ...request,
      ExpressionAttributeNames: { ...('ExpressionAttributeNames' in request ? request.ExpressionAttributeNames : {}), ...NAMES },
      ProjectionExpression: PROJECTION,
      ScanIndexForward: false,
      Limit: query.limit,
    }),
  );
  return (Items ?? []) as CallRecord[];
}

interface CallFilter {
  expression: { FilterExpression: string; names: Record<string, string>; values: Record<string, unknown> };
  matches: (call: CallRecord) => boolean;
}

/** The status and Voicemail filters, as a Query's filter and as a test of a call read by key. */
function callFilter(query: CallListQuery): CallFilter | undefined {
  if (query.voicemail === 'true') {
    return {
      expression: {
        FilterExpression: 'attribute_type(#voicemail, :map)',
        names: { '#voicemail': 'voicemail' },
        values: { ':map': 'M' },
      },
      matches: (call: CallRecord) => Boolean(call.voicemail),
    };
  }
  if (query.status) {
    const status = query.status;
    return {
      expression: { FilterExpression: '#status = :status', names: { '#status': 'callStatus' }, values: { ':status': status } },
      matches: (call: CallRecord) => call.callStatus === status,
    };
  }
  return undefined;
}

const newestFirst = (a: CallRecord, b: CallRecord) => {
  const [x, y] = [`${a.createdAt}#${a.id}`, `${b.createdAt}#${b.id}`];
  return x < y ? 1 : x > y ? -1 : 0;
};

/**
 * An agent's page: the newest `limit` of each channel they see and of the calls they handled, merged.
 * Each source is in time order, so the union's newest `limit` is the page. A filter reads on through a
 * channel's calls until its page is full (the channel's partition holds every status).
 */
async function viewerCalls(
  companyId: string,
  userId: string,
  channels: readonly string[],
  query: CallListQuery,
  from: string,
  to: string,
): Promise<CallRecord[]> {
  const filter = callFilter(query);
  const ofChannel = async (channelId: string) => {
    const found: CallRecord[] = [];
    for await (const page of queryPages<CallRecord>({
      IndexName: GSI4.indexName,
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
      FilterExpression: filter?.expression.FilterExpression,
      ExpressionAttributeNames: { '#pk': GSI4.partitionKey, '#sk': GSI4.sortKey, ...filter?.expression.names, ...NAMES },
      ExpressionAttributeValues: {
        ':pk': keys.callByChannel(companyId, channelId, '', '').GSI4PK,
        ':from': from,
        ':to': `${to}~`,
        ...filter?.expression.values,
      },
      ProjectionExpression: PROJECTION,
      ScanIndexForward: false,
      Limit: query.limit,
    })) {
      found.push(...page);
      if (found.length >= query.limit) break;
    }
    return found;
  };
  const handled = async () => {
    const found: CallRecord[] = [];
    const range = keys.callsHandledBetween(companyId, userId, from, to);
    for await (const page of queryPages<{ callId: string; createdAt: string }>({
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': range.PK, ':from': range.SKFrom, ':to': range.SKTo },
      ProjectionExpression: 'callId, createdAt',
      ScanIndexForward: false,
      Limit: query.limit,
    })) {
      const calls = await batchGetAll<CallRecord>(
        page.map((entry) => keys.call(companyId, entry.createdAt, entry.callId)),
        { ProjectionExpression: PROJECTION, ExpressionAttributeNames: NAMES },
      );
      found.push(...calls.filter((call) => !filter || filter.matches(call)));
      if (found.length >= query.limit) break;
    }
    return found;
  };
  const sources = await Promise.all([...channels.map(ofChannel), handled()]);
  const byId = new Map(sources.flat().map((call) => [call.id, call]));
  return [...byId.values()].sort(newestFirst).slice(0, query.limit);
}

async function contactsById(companyId: string, ids: string[]): Promise<Map<string, ContactRecord>> {
  const contacts = await batchGetAll<ContactRecord>(
    ids.map((id) => keys.contact(companyId, id)),
    { ProjectionExpression: 'id, #name', ExpressionAttributeNames: { '#name': 'name' } },
  );
  return new Map(contacts.map((contact) => [contact.id, contact]));
}
