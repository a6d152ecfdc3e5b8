import type { Retention } from '@shared/contract/company';
import * as company from '@shared/contract/endpoints/company';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, queryClient, session } from '@/lib/services';
import { markCompanyDeleted } from '@/lib/session-notice';

/** DELETE /company (owner only): the server ends every session of the company, this one included. */
export const deleteCompany = (confirm: string) => api.call(company.deleteCompany, { body: { confirm } }).then((d) => d.deletion);

/** Deletes the company, then signs out here too; /login says why (lib/session-notice.ts). */
export function useDeleteCompany() {
  return useMutation({
    mutationFn: deleteCompany,
    onSuccess: () => {
      markCompanyDeleted();
      session.clear();
      queryClient.clear();
    },
    retry: false,
  });
}

const retentionQuery = () => ({
  queryKey: ['company', 'retention'],
  queryFn: () => api.call(company.getRetention).then((r) => r.retention),
});

/** GET /company/retention: how long messages and calls are kept (null: kept). */
export const useRetention = () => useQuery(retentionQuery());

/** PUT /company/retention (owners and admins): applies to messages and calls written from now on. */
export function useSaveRetention() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (retention: Retention) => api.call(company.updateRetention, { body: retention }).then((d) => d.retention),
    onSuccess: (retention) => client.setQueryData(retentionQuery().queryKey, retention),
    retry: false,
  });
}
