import * as admin from '@shared/contract/endpoints/admin';
import * as company from '@shared/contract/endpoints/company';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AnswerOf } from '@/lib/api-client';
import { api } from '@/lib/services';

export const fetchAdminOverview = (cursor: string | null) =>
  api.call(admin.adminOverview, { query: { cursor: cursor ?? undefined } });

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
      api.call(company.adminDeleteCompany, { params: { id }, body: { confirm } }).then((d) => d.deletion),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'overview'] }),
    retry: false,
  });
}

/** Where Twilio reaches the platform now, and how many numbers point at another address. */
export function useWebhookAddress(enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'webhooks'],
    queryFn: () => api.call(admin.webhookAddress).then((d) => d.webhookAddress),
    enabled,
  });
}

/** What the re-point has done so far, pass after pass. */
export type RepointProgress = Omit<AnswerOf<typeof admin.repointWebhooks>['repoint'], 'nextCursor'>;

/**
 * POST /admin/webhooks/repoint, pass after pass until every company was visited (each pass fits one
 * request; the server says where the next starts). `onPass` hears the running totals after each.
 */
export function useRepointWebhooks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ onPass }: { onPass: (progress: RepointProgress) => void }) => {
      const total: RepointProgress = { webhookBase: '', repointed: { companies: 0, numbers: 0 }, failures: [] };
      let cursor: string | null = null;
      do {
        // Annotated: `cursor` is narrowed through the loop, which TypeScript cannot infer in one pass.
        const { repoint }: AnswerOf<typeof admin.repointWebhooks> = await api.call(admin.repointWebhooks, {
          body: cursor === null ? {} : { cursor },
        });
        total.webhookBase = repoint.webhookBase;
        total.repointed = {
          companies: total.repointed.companies + repoint.repointed.companies,
          numbers: total.repointed.numbers + repoint.repointed.numbers,
        };
        total.failures = [...total.failures, ...repoint.failures];
        onPass({ ...total });
        cursor = repoint.nextCursor;
      } while (cursor !== null);
      return total;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin', 'webhooks'] }),
    retry: false,
  });
}
