import type { QueryClient } from '@tanstack/react-query';
import type { ChannelHealth } from '../../../../shared/contract/channel-health';
import type { OnlineUser, ServerEvent } from '../../../../shared/contract/realtime-events';
import type { Channel, TeamUser } from '../../../../shared/contract/settings';
import { callKeys } from '../call-keys';
import { conversationKeys, storeConversation, storeMessage } from '../conversation-cache';
import { settingsKeys } from '../settings-queries';

export const realtimeKeys = {
  /** Who is online now, kept only by events (never fetched). */
  presence: ['presence'] as const,
};

/**
 * The one place where realtime events update the query cache. Features that add events (messages,
 * calls) add their mapping here, and their queries to `refreshAfterReconnect`.
 */
export function applyEvent(queryClient: QueryClient, event: ServerEvent): void {
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
      storeConversation(
        queryClient,
        { ...conversation, unreadCount: 0 },
        conversation.messageCount === 1 ? 'created' : 'unknown',
      );
      return;
    }
    case 'message_status_updated':
      storeMessage(queryClient, event.data.conversationId, event.data.message);
      return;
    case 'conversation_status_updated':
    case 'conversation_reopened':
      storeConversation(queryClient, { ...event.data.conversation, unreadCount: 0 }, 'status-changed');
      return;
    // Call History shows the call with its final status (the event is sent once the call's record is).
    case 'call_ended':
      void queryClient.invalidateQueries({ queryKey: callKeys.all });
      return;
    // Someone connected or disconnected Twilio: Settings shows the provider and its channels as they are now.
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
  }
}

/**
 * After the socket was down, events may have been missed: what they would have updated is fetched
 * again. Presence needs nothing: the server sends a fresh snapshot to every new socket.
 */
export function refreshAfterReconnect(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: settingsKeys.users });
  // Channel health changes are only told by events (and the list carries each channel's health).
  void queryClient.invalidateQueries({ queryKey: settingsKeys.channels });
  void queryClient.invalidateQueries({ queryKey: conversationKeys.all });
  void queryClient.invalidateQueries({ queryKey: callKeys.all });
}
