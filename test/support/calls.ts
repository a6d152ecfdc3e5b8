import { randomBytes, randomUUID } from 'node:crypto';
import type { ContactRecord } from '../../functions/conversations/records';
import { keys } from '../../functions/lib/table';
import { type CallRecord, callItem } from '../../functions/voice/call-records';
import type { CallStatus } from '../../shared/contract/calls';
import { putItems, seedPhone, type Table } from './conversations';

/**
 * Stores `count` finished inbound calls a minute apart, from `contacts` contacts in turn, with
 * BatchWrite: the items the voice webhooks store (call, CallSid link, contact). For benches and tests
 * that need a long history.
 */
export async function seedCalls(
  table: Table,
  companyId: string,
  channel: { id: string; identifier: string },
  options: { count: number; contacts: number; statuses?: readonly CallStatus[] },
): Promise<CallRecord[]> {
  const statuses = options.statuses ?? ['COMPLETED', 'NO_ANSWER'];
  const start = Date.now() - options.count * 60_000;
  const contacts: ContactRecord[] = Array.from({ length: Math.min(options.contacts, options.count) }, (_, i) => ({
    id: randomUUID(),
    companyId,
    name: i % 2 ? `Caller ${i}` : '',
    phoneNumber: seedPhone(i),
    email: null,
    notes: null,
    callCount: 0,
    conversationCount: 0,
    lastContactAt: null,
    createdAt: new Date(start).toISOString(),
  }));
  const calls = Array.from({ length: options.count }, (_, i): CallRecord => {
    const contact = contacts[i % contacts.length] as ContactRecord;
    const at = new Date(start + i * 60_000).toISOString();
    contact.callCount += 1;
    contact.lastContactAt = at;
    const callStatus = statuses[i % statuses.length] as CallStatus;
    return {
      id: randomUUID(),
      companyId,
      direction: 'INBOUND',
      providerCallId: `CA${randomBytes(16).toString('hex')}`,
      channelId: channel.id,
      channelPhoneNumber: channel.identifier,
      contactId: contact.id,
      contactPhoneNumber: contact.phoneNumber,
      createdAt: at,
      rungUserIds: [],
      declinedUserIds: [],
      acceptedUserIds: [],
      answeredBy: null,
      outcome: null,
      twilioStatus: 'completed',
      twilioDurationSeconds: callStatus === 'COMPLETED' ? 60 : 0,
      legs: {},
      dial: null,
      callStatus,
      durationSeconds: callStatus === 'COMPLETED' ? 60 : 0,
      endedAt: at,
      version: 1,
    };
  });
  const items: Record<string, unknown>[] = [
    ...contacts.flatMap((contact) => [
      { ...keys.contact(companyId, contact.id), entity: 'CONTACT', ...contact },
      { ...keys.contactPhone(companyId, contact.phoneNumber), entity: 'CONTACT_PHONE', contactId: contact.id },
    ]),
    ...calls.flatMap((call) => [
      callItem(call),
      {
        ...keys.callSid(call.providerCallId),
        entity: 'CALL_SID',
        companyId,
        callId: call.id,
        createdAt: call.createdAt,
      },
    ]),
  ];
  await putItems(table, items);
  return calls;
}
