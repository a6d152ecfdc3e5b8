import * as settings from '@shared/contract/endpoints/settings';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BodyOf } from '@/lib/api-client';
import { api } from '@/lib/services';
import { inboxesQuery, settingsKeys, usersQuery } from '@/lib/settings-queries';

export type NewInbox = BodyOf<typeof settings.createInbox>;

export const createInbox = (inbox: NewInbox) => api.call(settings.createInbox, { body: inbox }).then((d) => d.inbox);

export const deleteInbox = (id: string) => api.call(settings.deleteInbox, { params: { id } });

export const fetchInbox = (id: string) => api.call(settings.getInbox, { params: { id } }).then((d) => d.inbox);

export const fetchInboxRouting = (id: string) => api.call(settings.getInboxRouting, { params: { id } }).then((d) => d.strategies);

/** docs/product.md §4: RING_ALL is the only strategy; voicemail is unavailable. */
export const saveInboxRouting = (id: string) =>
  api.call(settings.saveInboxRouting, {
    params: { id },
    body: { channelType: 'PHONE', strategyType: 'RING_ALL', config: {} },
  });

export const addMember = (inboxId: string, userId: string) =>
  api.call(settings.addInboxMember, { params: { id: inboxId }, body: { userId } }).then((d) => d.member);

export const removeMember = (inboxId: string, userId: string) =>
  api.call(settings.removeInboxMember, { params: { id: inboxId, userId } });

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

/** PATCH /inboxes/{id}/recording: owners and admins (docs/product.md: Call recording). */
export const setInboxRecording = (id: string, enabled: boolean) =>
  api.call(settings.setInboxRecording, { params: { id }, body: { enabled } }).then((d) => d.inbox);

export function useSetInboxRecording(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => setInboxRecording(id, enabled),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.inboxes }),
    retry: false,
  });
}
