import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ServerEvent } from '../../shared/contract/realtime-events';
import type { ChannelRouting } from '../../shared/visibility';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { logError } from '../lib/log';
import { keys } from '../lib/table';
import { type Audience, publish } from '../realtime/publish';
import { channelRoutingNow, membersWhoSee } from '../team/visibility';
import type { ConversationRecord } from './records';

/**
 * A conversation's events go only to the members who see it (docs/product.md: Who sees what): owners
 * and admins, and the agents its channel's routing now, its assignee or a mention lets see it. What an
 * agent may not read (its GET answers 404) never reaches their tab either: no list entry, no unread
 * count, no desktop notification.
 */

/** What decides who sees a conversation. `mentionedUserIds`: the agents a note's mention let see it. */
export type SeenConversation = Pick<ConversationRecord, 'companyId' | 'channelId' | 'assignee'> & {
  mentionedUserIds?: readonly string[];
};

export interface AudienceOptions {
  /** The channel's routing when the caller has just read the channel (an inbound text): no read for it. */
  routing?: ChannelRouting;
  /** Agents mentioned by the note this event announces, whom the conversation item may not list yet. */
  mentioned?: readonly string[];
}

/**
 * The members who see the conversation now, as an audience: a Query of the company's members and, for
 * an inbox's channel, one of its members (functions/team/visibility.ts), beside a read of the channel
 * unless given. Never rejects: when it cannot be worked out, nobody is told (a tab that missed an event
 * reads it again on its next refresh), rather than everybody.
 */
export async function conversationAudience(conversation: SeenConversation, options: AudienceOptions = {}): Promise<Audience> {
  const { companyId } = conversation;
  try {
    const routing = options.routing ?? (await channelRoutingNow(companyId, conversation.channelId));
    const mentioned = [...(conversation.mentionedUserIds ?? []), ...(options.mentioned ?? [])];
    const members = await membersWhoSee(companyId, {
      routing,
      assigneeId: conversation.assignee?.id ?? null,
      mentionedUserIds: mentioned,
    });
    return { userIds: members.map((m) => m.id) };
  } catch (error) {
    logError({ route: 'conversationAudience', companyId }, error);
    return { userIds: [] };
  }
}

/** Publishes a conversation's event to the members who see it (publish.ts lists the sockets meanwhile). */
export function publishToViewers(
  conversation: SeenConversation,
  event: ServerEvent,
  audience: Promise<Audience> = conversationAudience(conversation),
): Promise<number> {
  return publish(conversation.companyId, event, audience);
}

/**
 * The conversation's event for those who see it after a change, and `visibility_changed` for those
 * among `before` (who saw it until now) who no longer do: their tabs read their lists again, and an
 * open thread of it closes (docs/product.md: Who sees what).
 */
export async function publishChange(
  conversation: SeenConversation,
  event: ServerEvent,
  before: readonly string[],
  options: AudienceOptions = {},
): Promise<void> {
  const audience = conversationAudience(conversation, options);
  const now = await audience;
  const lost = 'userIds' in now ? before.filter((id) => !now.userIds.includes(id)) : [];
  await Promise.all([
    publishToViewers(conversation, event, audience),
    lost.length
      ? publish(conversation.companyId, { type: 'visibility_changed', data: { reason: 'ASSIGNMENT' } }, { userIds: lost })
      : undefined,
  ]);
}

/** The conversation's item, only what decides who sees it: for events that carry only its id. */
export async function seenConversation(companyId: string, conversationId: string): Promise<SeenConversation | undefined> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.conversation(companyId, conversationId),
      ProjectionExpression: 'companyId, channelId, assignee, mentionedUserIds',
    }),
  );
  return Item as SeenConversation | undefined;
}
