import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Conversation } from '../../shared/contract/conversations';
import { formatPhoneNumber, parsePhoneNumber, phoneNumberProblem, toCountryCode } from '../../shared/phone-numbers';
import { getActiveUser } from '../auth/accounts';
import { newId } from '../auth/opaque-tokens';
import { defaultCountry } from '../company/settings';
import { contactActivityItem, createContactItems, firstChannelCounts, newContact } from '../contacts/contacts';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import { transact } from '../lib/transact';
import type { ChannelRecord } from '../settings/records';
import { assigneeCountChanges, companyCountersItem } from './company-counters';
import { toConversationView } from './conversation-views';
import { readSender, type Sender } from './inbound-sms';
import { conversationCreateItems, untilCommitted } from './message-writes';
import { optedOutMessage, sendSms } from './outbound-sms';
import { type ContactRecord, type ConversationRecord, openedConversation } from './records';
import { countText } from './sending-limits';
import { listSendingNumbers } from './sending-numbers';
import { requireSendingRoute } from './sending-route';
import { changeConversationStatus } from './status';
import { getConversationRecord } from './thread';
import type { Reader } from './visible-conversation';

export interface StartConversation {
  /** As the member typed it; read for the company's country. */
  to: string;
  channelId: string;
  body: string;
  /** Uploads the first text carries (docs/product.md: Pictures out). */
  pictureIds?: readonly string[];
}

/**
 * An agent texts a number first (docs/product.md: New conversation). The number's contact is found or
 * created as an inbound text does it, and its conversation on that channel reused (reopened when
 * closed) or created, OPEN and assigned to the agent; then the text goes out by the reply path
 * (sendSms: opt-out, counters, realtime). Nothing is created when the send is refused before it is
 * stored: another company's or an unknown channel (404), one the member may not send from (403), one
 * that cannot send (409, the thread's sentence), a number that is not one (400), an opted-out contact (409),
 * a picture that is not the company's upload (404), not a picture (400) or cannot go there (409).
 */
export async function startConversation(
  starter: Reader,
  input: StartConversation,
): Promise<{ created: boolean; conversation: Conversation }> {
  const { companyId, userId } = starter;
  const [channel, user, country, sendingNumbers] = await Promise.all([
    channelRecord(companyId, input.channelId),
    getActiveUser(companyId, userId),
    defaultCountry(companyId).then(toCountryCode),
    listSendingNumbers(starter),
  ]);
  if (!user) throw unauthorized('This account no longer exists.');
  if (!channel) throw notFound('Sending number not found');
  await requireSendingRoute({ companyId, channelId: channel.id, channelIdentifier: channel.identifier });
  if (!sendingNumbers.some((n) => n.channelId === channel.id)) {
    throw forbidden(
      `You cannot start conversations from ${formatPhoneNumber(channel.identifier, country)}: it is routed to an inbox you are not a member of, to another member, or to no one.`,
    );
  }
  const problem = phoneNumberProblem(input.to, country);
  const phone = problem ? undefined : parsePhoneNumber(input.to, country)?.e164;
  if (!phone) {
    const message = problem ?? 'Please enter a valid phone number';
    throw badRequest(message, { fields: { to: message } });
  }
  // Pictures are checked before anything is created: a refused one (404, 400, 409) leaves no conversation.
  const pictures = input.pictureIds?.length
    ? {
        checked: await (await import('./pictures')).checkPictures(companyId, input.pictureIds, { channel, to: phone }),
      }
    : [];
  // Counted before the conversation is created: a text over a limit leaves no conversation behind.
  const uncount = await countText(companyId, userId, input.body, input.pictureIds?.length ?? 0);

  const { conversation: found, created } = await untilCommitted(async () => {
    const sender = await readSender(companyId, channel.id, phone);
    if (sender.conversation) return { conversation: sender.conversation, created: false };
    const made = await tryCreate(channel, phone, sender, { id: user.id, name: user.name });
    return made && { conversation: made, created: true };
  });
  if (found.optedOut) {
    // Not sent after all.
    await uncount();
    throw conflict(optedOutMessage, 'OPTED_OUT');
  }
  if (found.status === 'CLOSED') await changeConversationStatus(starter, found.id, 'OPEN');
  await sendSms(starter, found.id, input.body, pictures, { counted: true });
  const conversation = await toConversationView(await getConversationRecord(companyId, found.id), userId);
  return { created, conversation };
}

async function channelRecord(companyId: string, channelId: string): Promise<ChannelRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.channel(companyId, channelId) }));
  return Item as ChannelRecord | undefined;
}

/**
 * The contact (when new) and an empty OPEN conversation, in one transaction with the company's open
 * count; undefined when a parallel writer (a text from that number, another agent) got in first.
 */
async function tryCreate(
  channel: ChannelRecord,
  phone: string,
  sender: Sender,
  startedBy: { id: string; name: string },
): Promise<ConversationRecord | undefined> {
  const { companyId } = channel;
  const at = new Date().toISOString();
  const conversationId = newId();
  const contact: ContactRecord = sender.contact ?? {
    ...newContact(companyId, phone, at),
    conversationCount: 1,
    lastContactAt: at,
    lastConversationId: conversationId,
    ...firstChannelCounts(channel.id, { conversations: 1 }),
  };
  const conversation: ConversationRecord = {
    ...openedConversation({ id: conversationId, companyId, contactId: contact.id, phone, channel, at }),
    lastMessage: null,
    messageCount: 0,
    optedOut: false,
    inboundCount: 0,
    // Who wrote first owns it, as a conversation routed to a member does; the team can reassign it.
    assignee: startedBy,
  };
  const result = await transact([
    ...(sender.contact
      ? [contactActivityItem(contact, { at, conversations: 1, conversationId, channelId: channel.id })]
      : createContactItems(contact, sender.staleContactId)),
    ...conversationCreateItems(conversation, sender.staleConversationId),
    companyCountersItem(companyId, { openConversations: 1 }, assigneeCountChanges(undefined, conversation)),
  ]);
  return result.written ? conversation : undefined;
}
