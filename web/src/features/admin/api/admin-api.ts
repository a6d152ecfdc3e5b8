import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminOverview } from '../../../../../shared/contract/admin';
import type { CompanyDeletion } from '../../../../../shared/contract/company';
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

/** DELETE /admin/companies/{id}: the deletion goes on in the background; the company leaves the list at once. */
export function useDeleteCompanyAsAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, confirm }: { id: string; confirm: string }) =>
      api
        .request<{ deletion: CompanyDeletion }>(`/admin/companies/${encodeURIComponent(id)}`, {
          method: 'DELETE',
          body: { confirm },
        })
        .then((r) => r.data.deletion),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'overview'] }),
    retry: false,
  });
}
