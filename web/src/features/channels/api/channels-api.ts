import * as settings from '@shared/contract/endpoints/settings';
import type { Channel } from '@shared/contract/settings';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BodyOf } from '@/lib/api-client';
import { api } from '@/lib/services';
import { channelsQuery, inboxesQuery, settingsKeys, usersQuery } from '@/lib/settings-queries';

export type RoutingType = Channel['routingType'];

/** docs/product.md §4: UNASSIGNED clears the target, sent as null. */
export type RoutingChange = BodyOf<typeof settings.updateChannelRouting>;

export const updateRouting = (channelId: string, change: RoutingChange) =>
  api.call(settings.updateChannelRouting, { params: { id: channelId }, body: change }).then((d) => d.channel);

export function useChannels() {
  return useQuery(channelsQuery());
}

/** The routing dialog's choices. */
export function useRoutingTargets(enabled: boolean) {
  return { inboxes: useQuery({ ...inboxesQuery(), enabled }), users: useQuery({ ...usersQuery(), enabled }) };
}

export function useUpdateRouting(channelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: RoutingChange) => updateRouting(channelId, change),
    onSuccess: (channel) => {
      queryClient.setQueryData<Channel[]>(settingsKeys.channels, (list) => list?.map((c) => (c.id === channel.id ? channel : c)));
      // An inbox's channel count changes with what is routed to it.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: settingsKeys.channels }),
        queryClient.invalidateQueries({ queryKey: settingsKeys.inboxes }),
      ]);
    },
    retry: false,
  });
}
