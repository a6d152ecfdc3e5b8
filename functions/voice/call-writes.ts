import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { retentionExpiry } from '../company/retention';
import {
  contactActivityItem,
  contactIdForPhone,
  createContactItems,
  firstChannelCounts,
  getContact,
  newContact,
} from '../contacts/contacts';
import type { ContactRecord } from '../conversations/records';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import { transact } from '../lib/transact';
import { type CallRecord, callItem, derive, handledItem } from './call-records';

/** Reads and writes of call records: created once per CallSid, then changed by optimistic, versioned writes. */

const E164 = /^\+[1-9]\d{1,14}$/;

/** Where the CallSid item leads: the company and the call's key. */
interface CallSidRecord {
  companyId: string;
  callId: string;
  createdAt: string;
}

async function callSidLink(callSid: string): Promise<CallSidRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.callSid(callSid), ConsistentRead: true }));
  return Item as CallSidRecord | undefined;
}

async function callOfLink(link: CallSidRecord): Promise<CallRecord | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName(), Key: keys.call(link.companyId, link.createdAt, link.callId), ConsistentRead: true }),
  );
  return Item as CallRecord | undefined;
}

/** The company a CallSid was stored for, if any. */
export const callSidOwner = async (callSid: string) => (await callSidLink(callSid))?.companyId;

export async function findCall(companyId: string, callSid: string): Promise<CallRecord | undefined> {
  const link = await callSidLink(callSid);
  return link?.companyId === companyId ? callOfLink(link) : undefined;
}

/** The contact of a number, read consistently (a parallel first contact is seen), or what to create. */
async function contactFor(companyId: string, phone: string, at: string) {
  const id = await contactIdForPhone(companyId, phone);
  const found = id ? await getContact(companyId, id) : undefined;
  if (found) return { contact: found, create: false as const };
  return { contact: newContact(companyId, phone, at), create: true as const, staleContactId: id };
}

/**
 * Stores a new call once per CallSid, with the contact of the other party found or created by number
 * and its callCount and lastContactAt moved in the same transaction. A replay (or a parallel copy) of
 * the webhook finds the stored call and answers it instead. Undefined when the CallSid is another
 * company's call (Twilio's Sids are unique, so the request is not this company's to record).
 */
export async function createCall(
  draft: Omit<CallRecord, 'contactId' | 'version'>,
): Promise<{ call: CallRecord; contact: ContactRecord | undefined; created: boolean } | undefined> {
  const expiry = await retentionExpiry(draft.companyId, draft.createdAt);
  for (let attempt = 0; attempt < 5; attempt++) {
    const link = await callSidLink(draft.providerCallId);
    if (link && link.companyId !== draft.companyId) return undefined;
    const existing = link ? await callOfLink(link) : undefined;
    if (existing) {
      const contact = existing.contactId ? await getContact(draft.companyId, existing.contactId) : undefined;
      return { call: existing, contact, created: false };
    }
    if (!E164.test(draft.contactPhoneNumber)) {
      const call = derive({ ...draft, ...expiry, contactId: null, version: 1 }, draft.createdAt);
      if (await putNewCall(call, [])) return { call, contact: undefined, created: true };
      continue;
    }
    const found = await contactFor(draft.companyId, draft.contactPhoneNumber, draft.createdAt);
    const contact: ContactRecord = found.create
      ? { ...found.contact, callCount: 1, lastContactAt: draft.createdAt, ...firstChannelCounts(draft.channelId, { calls: 1 }) }
      : { ...found.contact, callCount: (found.contact.callCount ?? 0) + 1, lastContactAt: draft.createdAt };
    const call = derive({ ...draft, ...expiry, contactId: contact.id, version: 1 }, draft.createdAt);
    const contactItems = found.create
      ? createContactItems(contact, found.staleContactId)
      : [contactActivityItem(contact, { at: draft.createdAt, calls: 1, channelId: draft.channelId })];
    if (await putNewCall(call, contactItems)) return { call, contact, created: true };
  }
  throw new Error(`Call ${draft.providerCallId} kept changing while it was stored`);
}

/** The call, its CallSid item and the contact's writes in one transaction; false when a parallel writer got in first. */
async function putNewCall(call: CallRecord, contactItems: Parameters<typeof transact>[0]): Promise<boolean> {
  const TableName = tableName();
  const handled = handledItem(call);
  const items = [
    {
      Put: {
        TableName,
        Item: {
          ...keys.callSid(call.providerCallId),
          entity: 'CALL_SID',
          companyId: call.companyId,
          callId: call.id,
          createdAt: call.createdAt,
          ...(call.expiresAt ? { expiresAt: call.expiresAt } : {}),
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    { Put: { TableName, Item: callItem(call) } },
    // Its caller's, for an outbound call (docs/product.md: Who sees what).
    ...(handled ? [{ Put: { TableName, Item: handled } }] : []),
    ...contactItems,
  ];
  // Not written: a parallel copy stored the call, or created the contact, first: read again.
  return (await transact(items)).written;
}

/**
 * Changes a stored call: reads it, applies `change` (facts in, status derived), writes it back only
 * if nobody wrote in between (else reads again). Answers the record before and after; undefined
 * when the company has no such call.
 */
export async function changeCall(
  companyId: string,
  callSid: string,
  change: (call: CallRecord) => CallRecord | Promise<CallRecord>,
): Promise<{ before: CallRecord; after: CallRecord } | undefined> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const before = await findCall(companyId, callSid);
    if (!before) return undefined;
    const after = derive(await change(before), new Date().toISOString());
    if (JSON.stringify(after) === JSON.stringify(before)) return { before, after };
    const write = {
      TableName: tableName(),
      Item: callItem({ ...after, version: before.version + 1 }),
      ConditionExpression: 'version = :version',
      ExpressionAttributeValues: { ':version': before.version },
    };
    // The agent who took it sees it from now on, whatever the channel's routing becomes: its entry is
    // written with the answer (docs/product.md: Who sees what).
    const handled = before.answeredBy ? undefined : handledItem(after);
    if (handled) {
      if ((await transact([{ Put: write }, { Put: { TableName: tableName(), Item: handled } }])).written) {
        return { before, after: { ...after, version: before.version + 1 } };
      }
      continue;
    }
    try {
      await db.send(new PutCommand(write));
      return { before, after: { ...after, version: before.version + 1 } };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
  throw new Error(`Call ${callSid} kept changing while it was updated`);
}
