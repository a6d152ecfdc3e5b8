import type { ChannelHealth } from '@shared/contract/channel-health';
import type { Conversation, SharedConversation } from '@shared/contract/conversations';
import type { OnlineUser, ServerEvent } from '@shared/contract/realtime-events';
import type { Channel, InboxDetail, TeamUser } from '@shared/contract/settings';
import type { Invitation } from '@shared/contract/team';
import type { QueryClient } from '@tanstack/react-query';
import { callKeys } from '../call-keys';
import { contactKeys } from '../contact-keys';
import {
  type ConversationChange,
  cachedConversation,
  conversationKeys,
  storeContact,
  storeConversation,
  storeDelivery,
  storeMessage,
} from '../conversation-cache';
import { profileQuery } from '../profile';
import { session } from '../services';
import { settingsKeys } from '../settings-queries';
import { isReadingThread } from '../thread-on-screen';
import { adjustUnreadSummary } from '../unread-summary';

export const realtimeKeys = {
  /** Who is online now, kept only by events (never fetched). */
  presence: ['presence'] as const,
};

/**
 * Stores a conversation an event carries (SharedConversation: the same for every member) with the
 * reader's own unread count: the cached one, plus `arrived` (an inbound text, a note mentioning them)
 * unless they are reading that thread in a visible tab, where the thread marks it read instead. The
 * nav's count follows.
 */
function storeShared(
  queryClient: QueryClient,
  shared: SharedConversation,
  change: ConversationChange,
  arrived = 0,
): Conversation {
  const before = cachedConversation(queryClient, shared.id);
  const unreadCount = isReadingThread(shared.id) ? (before?.unreadCount ?? 0) : (before?.unreadCount ?? 0) + arrived;
  const conversation = { ...shared, unreadCount };
  storeConversation(queryClient, conversation, change);
  // A conversation first seen here that brings nothing unread leaves the count as it was.
  adjustUnreadSummary(queryClient, before ?? (arrived === 0 ? conversation : null), conversation);
  return conversation;
}

/** Sets the cached unread count of a conversation (a read, a mention); the nav's count follows. */
function setUnread(queryClient: QueryClient, id: string, unread: (count: number) => number): void {
  const before = cachedConversation(queryClient, id);
  if (!before) {
    void queryClient.invalidateQueries({ queryKey: conversationKeys.unread, exact: true });
    return;
  }
  const conversation = { ...before, unreadCount: unread(before.unreadCount) };
  storeConversation(queryClient, conversation, 'unknown');
  adjustUnreadSummary(queryClient, before, conversation);
}

/**
 * The one place where realtime events update the query cache. Features that add events (messages,
 * calls) add their mapping here, and their queries to `refreshAfterReconnect`. `viewerId` is the
 * signed-in person (whose mentions count as unread).
 */
export function applyEvent(queryClient: QueryClient, event: ServerEvent, viewerId = session.get()?.user.id): void {
  const setPresence = (update: (users: OnlineUser[]) => OnlineUser[]) =>
    queryClient.setQueryData<OnlineUser[]>(realtimeKeys.presence, (users) => update(users ?? []));
  switch (event.type) {
    case 'presence_snapshot':
      setPresence(() => event.data.users);
      return;
    case 'user_joined': {
      const joined = event.data;
      setPresence((users) => [...users.filter((u) => u.id !== joined.id), joined]);
      // Someone new in the company (an accepted invitation): the team list is out of date.
      const team = queryClient.getQueryData<TeamUser[]>(settingsKeys.users);
      if (team && !team.some((u) => u.id === joined.id)) void queryClient.invalidateQueries({ queryKey: settingsKeys.users });
      return;
    }
    case 'user_left':
      setPresence((users) => users.filter((u) => u.id !== event.data.id));
      // Their Last Active was recorded as they left: the team list reads it again.
      void queryClient.invalidateQueries({ queryKey: settingsKeys.users });
      return;
    // A conversation's first message is the one that created it.
    case 'new_message':
    case 'message_sent': {
      const { conversation, message } = event.data;
      storeMessage(queryClient, conversation.id, message);
      const inbound = event.type === 'new_message' && message.direction === 'INBOUND' ? 1 : 0;
      storeShared(queryClient, conversation, conversation.messageCount === 1 ? 'created' : 'unknown', inbound);
      storeDelivery(queryClient, conversation.id, message);
      return;
    }
    case 'message_status_updated':
      storeMessage(queryClient, event.data.conversationId, event.data.message);
      storeDelivery(queryClient, event.data.conversationId, event.data.message);
      return;
    case 'conversation_status_updated':
    case 'conversation_reopened':
      storeShared(queryClient, event.data.conversation, 'status-changed');
      return;
    case 'conversation_assigned':
      storeShared(queryClient, event.data.conversation, 'assignee-changed');
      return;
    // A note mentioning the reader (by someone else) counts as unread for them, like an inbound text.
    case 'note_added': {
      const { conversationId, message } = event.data;
      storeMessage(queryClient, conversationId, message);
      const mentioned =
        viewerId !== undefined && message.sentBy?.id !== viewerId && message.mentions.some((m) => m.id === viewerId);
      if (mentioned && !isReadingThread(conversationId)) setUnread(queryClient, conversationId, (n) => n + 1);
      return;
    }
    // Read in some tab of the reader's: nothing unread there anymore.
    case 'conversation_read':
      setUnread(queryClient, event.data.conversationId, () => 0);
      return;
    // Call History shows the call with its final status (the event is sent once the call's record is).
    case 'call_ended':
    // A caller left a voicemail: Call History lists it, the Dashboard counts it.
    case 'voicemail_received':
      void queryClient.invalidateQueries({ queryKey: callKeys.all });
      return;
    // Someone connected or disconnected Twilio: Settings shows the provider and its channels as they are now.
    case 'phone_status_changed': {
      // docs/product.md §10.5: the Team page and the inboxes' member lists follow who can take calls.
      const { userId, phoneReady } = event.data;
      queryClient.setQueryData<TeamUser[]>(settingsKeys.users, (team) =>
        team?.map((u) => (u.id === userId ? { ...u, phoneReady } : u)),
      );
      for (const [key, inbox] of queryClient.getQueriesData<InboxDetail>({ queryKey: settingsKeys.inboxes })) {
        if (!inbox || !Array.isArray(inbox.members) || !inbox.members.some((m) => m.userId === userId)) continue;
        queryClient.setQueryData<InboxDetail>(key, {
          ...inbox,
          members: inbox.members.map((m) => (m.userId === userId ? { ...m, phoneReady } : m)),
        });
      }
      return;
    }
    case 'provider_changed':
      void queryClient.invalidateQueries({ queryKey: settingsKeys.providers });
      void queryClient.invalidateQueries({ queryKey: settingsKeys.channels });
      return;
    // A check found a channel's health changed (the schedule, Check now or Repair in another tab): its
    // badge changes at once; its problems and delivery summary, which the event does not carry, are fetched again.
    case 'channel_health_changed': {
      const { channelId, health } = event.data;
      queryClient.setQueryData<Channel[]>(settingsKeys.channels, (list) =>
        list?.map((c) => (c.id === channelId ? { ...c, health } : c)),
      );
      const key = settingsKeys.channelHealth(channelId);
      queryClient.setQueryData<ChannelHealth>(key, (old) => old && { ...old, ...health });
      void queryClient.invalidateQueries({ queryKey: key, exact: true });
      return;
    }
    // Someone saved or deleted a contact: the conversations with them show the name at once; the
    // contact book and Call History (whose search and rows may change) are read again.
    case 'contact_changed': {
      const { contactId, contact } = event.data;
      storeContact(queryClient, contactId, contact);
      void queryClient.invalidateQueries({ queryKey: contactKeys.all });
      void queryClient.invalidateQueries({ queryKey: callKeys.all });
      return;
    }
    // Another manager sent, resent, revoked or withdrew an invitation: Pending Invitations shows it at
    // once (an address has one pending invitation, so a newer one replaces its row), then is read again.
    case 'invitation_changed': {
      const { invitationId, invitation } = event.data;
      queryClient.setQueryData<Invitation[]>(settingsKeys.invitations, (list) => {
        if (!list || !invitation) return list?.filter((i) => i.id !== invitationId);
        const replaces = (i: Invitation) => i.id === invitationId || i.email === invitation.email;
        const at = list.findIndex(replaces);
        if (at === -1) return [...list, invitation];
        return list.flatMap((i, index) => (index === at ? [invitation] : replaces(i) ? [] : [i]));
      });
      void queryClient.invalidateQueries({ queryKey: settingsKeys.invitations });
      return;
    }
    // An invitation became a member: Pending Invitations loses it and the team gains them, in every tab.
    case 'invitation_accepted': {
      const { invitationId, user } = event.data;
      queryClient.setQueryData<{ id: string }[]>(settingsKeys.invitations, (list) => list?.filter((i) => i.id !== invitationId));
      queryClient.setQueryData<TeamUser[]>(settingsKeys.users, (team) =>
        team && !team.some((u) => u.id === user.id) ? [...team, user] : team,
      );
      void queryClient.invalidateQueries({ queryKey: settingsKeys.invitations });
      void queryClient.invalidateQueries({ queryKey: settingsKeys.users });
      return;
    }
    // A removed member leaves the team list and every assignee picker at once.
    case 'member_removed':
      queryClient.setQueryData<TeamUser[]>(settingsKeys.users, (team) => team?.filter((u) => u.id !== event.data.userId));
      return;
    // What this member sees changed (docs/product.md: Who sees what): the lists, the unread count, the
    // open thread (which answers 404 once it is no longer theirs), calls and counts are read again, and
    // their role with them. Nothing is worked out here: the server says what they see.
    case 'visibility_changed':
      void queryClient.invalidateQueries({ queryKey: conversationKeys.all });
      void queryClient.invalidateQueries({ queryKey: callKeys.all });
      void queryClient.invalidateQueries({ queryKey: contactKeys.all });
      void queryClient.invalidateQueries({ queryKey: profileQuery().queryKey });
      return;
  }
}

/**
 * After the socket was down, events may have been missed: what they would have updated is fetched
 * again. Presence needs nothing: the server sends a fresh snapshot to every new socket.
 */
export function refreshAfterReconnect(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: settingsKeys.users });
  void queryClient.invalidateQueries({ queryKey: settingsKeys.invitations });
  void queryClient.invalidateQueries({ queryKey: contactKeys.all });
  // Channel health changes are only told by events (and the list carries each channel's health).
  void queryClient.invalidateQueries({ queryKey: settingsKeys.channels });
  void queryClient.invalidateQueries({ queryKey: conversationKeys.all });
  void queryClient.invalidateQueries({ queryKey: callKeys.all });
}
