import type { ConversationPage } from '../../shared/contract/conversations';
import type { ContractOf } from '../../shared/contract/route';
import { type Account, type CallOptions, callRoute, unchecked } from './api';
import { endpoints } from './endpoints';
import { createInbox } from './settings';
import { readConversation, type SmsLine } from './sms';
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
 * An inbox the line's number routes to, with these members: agents see its conversations only
 * so (docs/product.md: Who sees what).
 */
export async function inboxOfLine(line: SmsLine, members: readonly Account[], name = 'Support'): Promise<string> {
  const inbox = await createInbox(line.account, name);
  for (const member of members) await addInboxMember(line.account, inbox.id, member.user.id);
  await routeChannel(line.account, line.channel, 'INBOX', inbox.id);
  return inbox.id;
}
