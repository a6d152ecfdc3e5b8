import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { MAX_RING_ALL_CLIENTS } from '../../shared/constants';
import { callStatusWebhook, dialResultWebhook } from '../../shared/contract/voice';
import { getActiveUser, type UserRecord } from '../auth/accounts';
import { newId } from '../auth/opaque-tokens';
import { recordingDisclosure } from '../company/calling-settings';
import { toE164 } from '../contacts/contacts';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import type { WebhookProvider } from '../lib/define-webhook';
import { queryPrefix } from '../lib/query';
import { keys } from '../lib/table';
import { readyUserIds } from '../realtime/phone-readiness';
import { publish } from '../realtime/publish';
import type { ChannelRecord } from '../settings/records';
import { signedWebhookUrl } from '../settings/webhook-urls';
import { channelRecords } from './call-recording-policy';
import type { CallRecord } from './call-records';
import { createCall } from './call-writes';
import { isVoiceChannel } from './caller-ids';
import { clientIdentity } from './client-identity';
import { NOBODY_AVAILABLE, ringClients, sayAndHangUp } from './twiml';
import { takeVoicemail } from './voicemail-twiml';

export interface InboundCall {
  callSid: string;
  from: string;
  to: string;
}

/** The company's active voice channel of a number, if this provider's. */
export async function voiceChannelOfNumber(provider: Pick<WebhookProvider, 'id' | 'companyId'>, e164: string) {
  const TableName = tableName();
  const { Item: owner } = await db.send(new GetCommand({ TableName, Key: keys.number(e164) }));
  if (owner?.companyId !== provider.companyId) return undefined;
  const { Item } = await db.send(
    new GetCommand({ TableName, Key: keys.channel(provider.companyId, owner.channelId as string), ConsistentRead: true }),
  );
  const channel = Item as ChannelRecord | undefined;
  return channel && channel.providerId === provider.id && isVoiceChannel(channel) ? channel : undefined;
}

/**
 * Who a call to the channel rings: the user it is routed to, or every member of its inbox (ring all).
 * Twilio takes at most 10 `<Client>`s in a `<Dial>`: a larger inbox rings its 10 most recently active
 * members. Removed users are never rung.
 */
async function usersToRing(channel: ChannelRecord): Promise<UserRecord[]> {
  const { companyId, routingType, routingTargetId } = channel;
  if (!routingTargetId) return [];
  if (routingType === 'USER') {
    const user = await getActiveUser(companyId, routingTargetId);
    return user ? [user] : [];
  }
  if (routingType !== 'INBOX') return [];
  const members = await queryPrefix<{ userId: string }>(keys.inboxMembersOf(companyId, routingTargetId));
  const users = await Promise.all(members.map((m) => getActiveUser(companyId, m.userId)));
  return users
    .filter((u): u is UserRecord => u !== undefined)
    .sort((a, b) => (b.lastActiveAt ?? '').localeCompare(a.lastActiveAt ?? '') || a.id.localeCompare(b.id))
    .slice(0, MAX_RING_ALL_CLIENTS);
}

/**
 * A phone calls one of the company's numbers: the call is recorded once per CallSid (a replayed
 * webhook gets the same TwiML and records nothing twice), the users it rings hear `incoming_call`,
 * and the answer rings their browsers. Nobody to ring, or nobody whose phone is ready: the call is a
 * NO_ANSWER and the caller may leave a voicemail (voicemail.ts).
 */
export async function receiveCall(provider: WebhookProvider, call: InboundCall): Promise<string> {
  const to = await toE164(call.to);
  const channel = to ? await voiceChannelOfNumber(provider, to) : undefined;
  // Not a number of this company (any more): nothing to record, and nobody to ring.
  if (!channel) return sayAndHangUp(NOBODY_AVAILABLE);
  const from = (await toE164(call.from)) ?? call.from;
  const members = await usersToRing(channel);
  // Ring only when someone can answer: with no member's phone ready the caller goes to voicemail at
  // once instead of hearing the whole ring first; with one, everyone rings (docs/product.md §10.5).
  // A phone whose tab is reloading still counts, for the reload grace: the new page takes the call.
  const ready =
    members.length > 0 ? await readyUserIds(provider.companyId, undefined, { withinReloadGrace: true }) : new Set<string>();
  const nobodyReady = members.length > 0 && !members.some((u) => ready.has(u.id));
  const rung = nobodyReady ? [] : members;
  const createdAt = new Date().toISOString();
  // Recorded from the answer, after the disclosure: only a call that rings someone (docs/product.md: Call recording).
  const recorded = rung.length > 0 && (await channelRecords(channel));
  const draft: Omit<CallRecord, 'contactId' | 'version'> = {
    id: newId(),
    companyId: provider.companyId,
    direction: 'INBOUND',
    providerCallId: call.callSid,
    channelId: channel.id,
    channelPhoneNumber: channel.identifier,
    contactPhoneNumber: from,
    createdAt,
    rungUserIds: rung.map((u) => u.id),
    declinedUserIds: [],
    acceptedUserIds: [],
    answeredBy: null,
    outcome: rung.length === 0 ? 'NO_ANSWER' : null,
    ...(nobodyReady ? { missedReason: 'NOBODY_AVAILABLE' as const } : {}),
    twilioStatus: 'ringing',
    twilioDurationSeconds: null,
    legs: {},
    dial: null,
    callStatus: 'RINGING',
    durationSeconds: 0,
    endedAt: null,
    routing: { type: channel.routingType, targetId: channel.routingTargetId ?? null },
    ...(recorded ? { recordsCall: true } : {}),
  };
  const created = await createCall(draft);
  // Another company's CallSid: nothing of this company to ring.
  if (!created) return sayAndHangUp(NOBODY_AVAILABLE);
  const { call: stored, contact } = created;
  // Nobody to ring (an unassigned number, an inbox without members, no phone ready): the caller leaves a voicemail.
  if (stored.rungUserIds.length === 0 || stored.outcome) return takeVoicemail(provider);
  const contactView = contact ? { id: contact.id, name: contact.name ?? '', phoneNumber: contact.phoneNumber } : null;
  if (created.created) {
    await publish(
      provider.companyId,
      { type: 'incoming_call', data: { callSid: call.callSid, from, to: channel.identifier, contact: contactView } },
      { userIds: stored.rungUserIds },
    );
  }
  return ringClients(
    stored.rungUserIds.map(clientIdentity),
    { action: signedWebhookUrl(provider, dialResultWebhook), statusCallback: signedWebhookUrl(provider, callStatusWebhook) },
    {
      parentCallSid: call.callSid,
      callerNumber: from,
      calledNumber: channel.identifier,
      contactName: contact?.name || undefined,
      recorded: stored.recordsCall ? 'true' : undefined,
    },
    stored.recordsCall ? await recordingDisclosure(provider.companyId) : undefined,
  );
}
