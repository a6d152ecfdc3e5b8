import { useInfiniteQuery } from '@tanstack/react-query';
import type { AdminOverview } from '../../../../../shared/contract/admin';
import { api } from '../../../lib/services';

export const fetchAdminOverview = (cursor: string | null) =>
  api.get<AdminOverview>('/admin/overview', { query: { cursor: cursor ?? undefined } });

/** The totals come with every page; the companies add up page by page (newest first). */
export function useAdminOverview(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: ['admin', 'overview'],
    queryFn: ({ pageParam }) => fetchAdminOverview(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
  });
}
