import type { ConversationPage } from '../../shared/contract/conversations';
import type { ContractOf } from '../../shared/contract/route';
import type { Channel, Inbox } from '../../shared/contract/settings';
import { type Account, type CallOptions, callRoute, unchecked } from './api';
import { endpoints } from './endpoints';
import { createInbox } from './settings';
import { readConversation } from './sms';
import { addInboxMember, routeChannel } from './voice';

/** The team inbox's routes as a member's browser calls them. */

export const markRead = (who: Account, conversationId: string) =>
  callRoute(endpoints.markConversationRead, { params: { id: conversationId }, token: who.tokens.accessToken });

export const addNote = (who: Account, conversationId: string, body: unknown) =>
  callRoute(endpoints.addNote, {
    params: { id: conversationId },
    token: who.tokens.accessToken,
    body: { body: unchecked(body) },
  });

export async function unreadSummary(who: Account): Promise<{ count: number; complete: boolean }> {
  const res = await callRoute(endpoints.unreadConversations, { token: who.tokens.accessToken });
  if (res.status !== 200) throw new Error(`unread: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function listPage(
  who: Account,
  query: CallOptions<ContractOf<typeof endpoints.listConversations>>['query'] = {},
): Promise<ConversationPage> {
  const res = await callRoute(endpoints.listConversations, { query, token: who.tokens.accessToken });
  if (res.status !== 200) throw new Error(`list: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** A member's unread count of a conversation as the list and the detail show it (they must agree). */
export async function unreadOf(who: Account, conversationId: string): Promise<number> {
  const [page, detail] = await Promise.all([listPage(who, { limit: 100 }), readConversation(who, conversationId)]);
  const listed = page.conversations.find((c) => c.id === conversationId);
  if (!listed) throw new Error(`${conversationId} is not in the list`);
  if (detail.status !== 200) throw new Error(`detail: ${detail.status}`);
  if (listed.unreadCount !== detail.body.data.conversation.unreadCount) {
    throw new Error(`list says ${listed.unreadCount}, detail ${detail.body.data.conversation.unreadCount}`);
  }
  return listed.unreadCount;
}

/**
 * The members share an inbox the number is routed to, so each of them sees its conversations (docs/product.md:
 * Who sees what): what the team inbox's tests take for granted. Answers the inbox.
 */
export async function shareInbox(
  owner: Account,
  channel: Pick<Channel, 'id'>,
  members: readonly Account[],
  name = 'Team',
): Promise<Inbox> {
  const inbox = await createInbox(owner, name);
  await Promise.all(members.map((member) => addInboxMember(owner, inbox.id, member.user.id)));
  await routeChannel(owner, channel, 'INBOX', inbox.id);
  return inbox;
}
