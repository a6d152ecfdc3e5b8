import * as settings from '@shared/contract/endpoints/settings';
import { queryOptions, type UseQueryResult } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from './services';

/**
 * The settings lists more than one feature reads (the routing dialog needs inboxes and users, the
 * dashboard counts channels and users): one query key and one fetcher each, so every screen shares
 * one cache entry and one invalidation.
 */
export const settingsKeys = {
  providers: ['providers'] as const,
  availableNumbers: (providerId: string) => ['providers', providerId, 'available-numbers'] as const,
  channels: ['channels'] as const,
  /** Under the list's key: whatever marks the channels stale marks their health stale too. */
  channelHealth: (id: string) => ['channels', id, 'health'] as const,
  inboxes: ['inboxes'] as const,
  inbox: (id: string) => ['inboxes', id] as const,
  inboxRouting: (id: string) => ['inboxes', id, 'routing'] as const,
  users: ['users'] as const,
  /** Pending invitations (the Team page), which an accepted invitation's event updates. */
  invitations: ['invitations'] as const,
};

export const providersQuery = () =>
  queryOptions({
    queryKey: settingsKeys.providers,
    queryFn: () => api.call(settings.listProviders).then((d) => d.providers),
  });

export const channelsQuery = () =>
  queryOptions({
    queryKey: settingsKeys.channels,
    queryFn: () => api.call(settings.listChannels).then((d) => d.channels),
  });

export const inboxesQuery = () =>
  queryOptions({
    queryKey: settingsKeys.inboxes,
    queryFn: () => api.call(settings.listInboxes).then((d) => d.inboxes),
  });

export const usersQuery = () =>
  queryOptions({
    queryKey: settingsKeys.users,
    queryFn: () => api.call(settings.listUsers).then((d) => d.users),
  });

/**
 * docs/product.md §8: a list that fails to load on Providers, Channels or Inboxes is only logged; the page then
 * shows its empty state.
 */
export function useLogFailure(query: Pick<UseQueryResult, 'error'>, what: string) {
  const { error } = query;
  useEffect(() => {
    if (error) console.error(`Failed to load ${what}`, error);
  }, [error, what]);
}
