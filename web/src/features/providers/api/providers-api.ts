import * as settings from '@shared/contract/endpoints/settings';
import type { Provider } from '@shared/contract/settings';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AnswerOf, BodyOf } from '@/lib/api-client';
import { api } from '@/lib/services';
import { providersQuery, settingsKeys } from '@/lib/settings-queries';

export type TwilioCredentials = BodyOf<typeof settings.connectTwilio>;

/** One number to import (docs/product.md §3 Import payload). */
export type ImportNumber = BodyOf<typeof settings.importChannels>['numbers'][number];

export const connectTwilio = (credentials: TwilioCredentials) =>
  api.call(settings.connectTwilio, { body: credentials }).then((d) => d.provider);

export const disconnectProvider = (id: string) =>
  api.call(settings.disconnectProvider, { params: { id } }).then((d) => d.provider);

export const fetchAvailableNumbers = (providerId: string) =>
  api.call(settings.availableNumbers, { params: { id: providerId } }).then((d) => d.numbers);

/** A number an import left out, and why. */
export type SkippedNumber = AnswerOf<typeof settings.importChannels>['skipped'][number];

export const importChannels = (providerId: string, numbers: ImportNumber[]) =>
  api.call(settings.importChannels, { params: { id: providerId }, body: { numbers } });

export const availableNumbersQuery = (providerId: string) =>
  queryOptions({
    queryKey: settingsKeys.availableNumbers(providerId),
    queryFn: () => fetchAvailableNumbers(providerId),
    // The provider account is the truth: every opening of the dialog asks it again.
    staleTime: 0,
    gcTime: 0,
  });

export function useProviders() {
  return useQuery(providersQuery());
}

export function useAvailableNumbers(providerId: string, enabled = true) {
  return useQuery({ ...availableNumbersQuery(providerId), enabled });
}

/** Connecting, disconnecting and importing change the provider card and the channels list. */
function useRefreshProvidersAndChannels() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: settingsKeys.providers }),
      queryClient.invalidateQueries({ queryKey: settingsKeys.channels }),
    ]);
}

/**
 * `onConnected` runs here rather than in `mutate`'s callbacks: the new provider replaces the form that
 * called `mutate`, and an unmounted caller's callbacks never run.
 */
export function useConnectTwilio(onConnected?: (provider: Provider) => void) {
  const refresh = useRefreshProvidersAndChannels();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: connectTwilio,
    onSuccess: (provider) => {
      onConnected?.(provider);
      queryClient.setQueryData<Provider[]>(settingsKeys.providers, (list) => [...(list ?? []), provider]);
      return refresh();
    },
    retry: false,
  });
}

export function useDisconnectProvider() {
  const refresh = useRefreshProvidersAndChannels();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disconnectProvider,
    // Channels routed to inboxes change the inboxes' channel counts too.
    onSuccess: () => Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: settingsKeys.inboxes })]),
    retry: false,
  });
}

export function useImportChannels(providerId: string) {
  const refresh = useRefreshProvidersAndChannels();
  return useMutation({
    mutationFn: (numbers: ImportNumber[]) => importChannels(providerId, numbers),
    onSuccess: refresh,
    retry: false,
  });
}
