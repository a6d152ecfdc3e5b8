import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CallerId } from '../../../../../shared/contract/voice';
import { api } from '../../../lib/services';

/** POST /voice/token (SPEC §7): at initialisation and again before the token expires. */
export const fetchVoiceToken = () => api.post<{ token: string }>('/voice/token').then((d) => d.token);

/** GET /voice/caller-ids: the numbers this user may call from (their inboxes' and their own). */
export const callerIdsQuery = () =>
  queryOptions({
    queryKey: ['voice', 'caller-ids'] as const,
    queryFn: () => api.get<{ callerIds: CallerId[] }>('/voice/caller-ids').then((d) => d.callerIds),
  });

export const useCallerIds = () => useQuery(callerIdsQuery());
