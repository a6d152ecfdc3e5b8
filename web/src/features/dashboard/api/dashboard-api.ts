import { queryOptions, useQuery } from '@tanstack/react-query';
import * as conversations from '../../../../../shared/contract/endpoints/conversations';
import { needsAttention } from '../../../lib/channel-health';
import { conversationKeys } from '../../../lib/conversation-cache';
import { api } from '../../../lib/services';
import { channelsQuery } from '../../../lib/settings-queries';

/** The company's open conversations: the list's total (a counter on the server), for a page of one. */
export const fetchOpenConversationCount = () =>
  api.call(conversations.listConversations, { query: { status: 'OPEN', limit: 1 } }).then((d) => d.total);

export const openConversationCountQuery = () =>
  queryOptions({ queryKey: conversationKeys.openCount, queryFn: fetchOpenConversationCount });

export function useOpenConversationCount() {
  return useQuery(openConversationCountQuery());
}

/** The numbers in use whose last health check found them not healthy (issue 26), from the shared channels list. */
export function useChannelsNeedingAttention() {
  return useQuery({ ...channelsQuery(), select: (list) => list.filter(needsAttention) });
}
