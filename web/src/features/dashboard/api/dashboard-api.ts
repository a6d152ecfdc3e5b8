import { CALLS_LIST_LIMIT } from '@shared/constants';
import * as calls from '@shared/contract/endpoints/calls';
import * as conversations from '@shared/contract/endpoints/conversations';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callKeys } from '@/lib/call-keys';
import { needsAttention } from '@/lib/channel-health';
import { conversationKeys } from '@/lib/conversation-cache';
import { api } from '@/lib/services';
import { channelsQuery } from '@/lib/settings-queries';

/** The company's open conversations: the list's total (a counter on the server), for a page of one. */
export const fetchOpenConversationCount = () =>
  api.call(conversations.listConversations, { query: { status: 'OPEN', limit: 1 } }).then((d) => d.total);

export const openConversationCountQuery = () =>
  queryOptions({ queryKey: conversationKeys.openCount, queryFn: fetchOpenConversationCount });

export function useOpenConversationCount() {
  return useQuery(openConversationCountQuery());
}

/** The numbers in use whose last health check found them not healthy, from the shared channels list. */
export function useChannelsNeedingAttention() {
  return useQuery({ ...channelsQuery(), select: (list) => list.filter(needsAttention) });
}

/**
 * New voicemails: the calls with one nobody has played yet, from Call History's Voicemail
 * filter. Under Call History's key, so a voicemail arriving or played updates the count as well.
 */
export function useNewVoicemailCount() {
  return useQuery({
    queryKey: callKeys.list({ newVoicemails: true }),
    queryFn: () =>
      api
        .call(calls.listCalls, { query: { voicemail: 'true', limit: CALLS_LIST_LIMIT } })
        .then((d) => d.calls.filter((call) => call.voicemail && !call.voicemail.listened).length),
  });
}
