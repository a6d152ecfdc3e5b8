import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Inbox, InboxDetail, InboxMember, RoutingStrategy } from '../../../../../shared/contract/settings';
import { api } from '../../../lib/services';
import { inboxesQuery, settingsKeys, usersQuery } from '../../../lib/settings-queries';

export interface NewInbox {
  name: string;
  description: string;
}

const inboxPath = (id: string) => `/inboxes/${encodeURIComponent(id)}`;

export const createInbox = (inbox: NewInbox) => api.post<{ inbox: Inbox }>('/inboxes', inbox).then((d) => d.inbox);

export const deleteInbox = (id: string) => api.request<{ inbox: Inbox }>(inboxPath(id), { method: 'DELETE' });

export const fetchInbox = (id: string) => api.get<{ inbox: InboxDetail }>(inboxPath(id)).then((d) => d.inbox);

export const fetchInboxRouting = (id: string) =>
  api.get<{ strategies: RoutingStrategy[] }>(`${inboxPath(id)}/routing`).then((d) => d.strategies);

/** docs/product.md §4: RING_ALL is the only strategy; voicemail is unavailable. */
export const saveInboxRouting = (id: string) =>
  api.post<{ strategy: RoutingStrategy }>(`${inboxPath(id)}/routing`, {
    channelType: 'PHONE',
    strategyType: 'RING_ALL',
    config: {},
  });

export const addMember = (inboxId: string, userId: string) =>
  api.post<{ member: InboxMember }>(`${inboxPath(inboxId)}/members`, { userId }).then((d) => d.member);

export const removeMember = (inboxId: string, userId: string) =>
  api.request<{ member: InboxMember }>(`${inboxPath(inboxId)}/members/${encodeURIComponent(userId)}`, { method: 'DELETE' });

export const inboxQuery = (id: string) => queryOptions({ queryKey: settingsKeys.inbox(id), queryFn: () => fetchInbox(id) });

export const inboxRoutingQuery = (id: string) =>
  queryOptions({ queryKey: settingsKeys.inboxRouting(id), queryFn: () => fetchInboxRouting(id) });

export function useInboxes() {
  return useQuery(inboxesQuery());
}

export function useUsers() {
  return useQuery(usersQuery());
}

export function useInbox(id: string) {
  return useQuery(inboxQuery(id));
}

export function useInboxRouting(id: string) {
  return useQuery(inboxRoutingQuery(id));
}

export function useCreateInbox() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInbox,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.inboxes }),
    retry: false,
  });
}

export function useDeleteInbox() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteInbox,
    onSuccess: (_result, id) => {
      queryClient.removeQueries({ queryKey: settingsKeys.inbox(id) });
      // Channels routed to the inbox show their routing changed.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: settingsKeys.inboxes }),
        queryClient.invalidateQueries({ queryKey: settingsKeys.channels }),
      ]);
    },
    retry: false,
  });
}

export function useSaveInboxRouting(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => saveInboxRouting(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.inboxRouting(id) }),
    retry: false,
  });
}

/** Adding or removing a member changes the inbox's member list and the list's member count. */
function useRefreshInbox(inboxId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: settingsKeys.inbox(inboxId), exact: true }),
      queryClient.invalidateQueries({ queryKey: settingsKeys.inboxes, exact: true }),
    ]);
}

export function useAddMember(inboxId: string) {
  const refresh = useRefreshInbox(inboxId);
  return useMutation({ mutationFn: (userId: string) => addMember(inboxId, userId), onSuccess: refresh, retry: false });
}

export function useRemoveMember(inboxId: string) {
  const refresh = useRefreshInbox(inboxId);
  return useMutation({ mutationFn: (userId: string) => removeMember(inboxId, userId), onSuccess: refresh, retry: false });
}
