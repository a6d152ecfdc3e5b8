import type { ChannelHealth } from '@shared/contract/channel-health';
import * as health from '@shared/contract/endpoints/channel-health';
import type { Channel } from '@shared/contract/settings';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/services';
import { settingsKeys } from '@/lib/settings-queries';

/** `refresh`: Twilio is asked now; otherwise the server answers its last check. */
export const fetchChannelHealth = (channelId: string, refresh = false) =>
  api
    .call(health.getChannelHealth, { params: { id: channelId }, query: refresh ? { refresh: 'true' } : {} })
    .then((d) => d.health);

/** `confirmMessagingService`: the person was shown the Messaging Service and its other numbers, and said yes. */
export const repairChannel = (channelId: string, confirmMessagingService: boolean) =>
  api.call(health.repairChannel, { params: { id: channelId }, body: { confirmMessagingService } });

export const channelHealthQuery = (channelId: string) =>
  queryOptions({ queryKey: settingsKeys.channelHealth(channelId), queryFn: () => fetchChannelHealth(channelId) });

/** The last check's problems and delivery summary; only fetched while `enabled`. */
export function useChannelHealth(channelId: string, enabled = true) {
  return useQuery({ ...channelHealthQuery(channelId), enabled });
}

/** A new health answer goes to its own query and, as status and time, to the channel's row in the list. */
function useStoreHealth(channelId: string) {
  const queryClient = useQueryClient();
  return (answer: ChannelHealth) => {
    queryClient.setQueryData(settingsKeys.channelHealth(channelId), answer);
    queryClient.setQueryData<Channel[]>(settingsKeys.channels, (list) =>
      list?.map((c) => (c.id === channelId ? { ...c, health: { status: answer.status, checkedAt: answer.checkedAt } } : c)),
    );
  };
}

/** Check now: asks Twilio at once instead of waiting for the scheduled check. */
export function useCheckChannelHealth(channelId: string) {
  const store = useStoreHealth(channelId);
  return useMutation({ mutationFn: () => fetchChannelHealth(channelId, true), onSuccess: store, retry: false });
}

/** Repair (owners and admins): answers the new health and what it changed in Twilio. */
export function useRepairChannel(channelId: string) {
  const store = useStoreHealth(channelId);
  return useMutation({
    mutationFn: (confirm: { messagingService: boolean }) => repairChannel(channelId, confirm.messagingService),
    onSuccess: (answer) => store(answer.health),
    retry: false,
  });
}
