import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CompanyDeletion, Retention } from '../../../../../shared/contract/company';
import { api, queryClient, session } from '../../../lib/services';
import { markCompanyDeleted } from '../../../lib/session-notice';

/** DELETE /company (owner only): the server ends every session of the company, this one included. */
export const deleteCompany = (confirm: string) =>
  api.request<{ deletion: CompanyDeletion }>('/company', { method: 'DELETE', body: { confirm } }).then((r) => r.data.deletion);

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
  queryFn: () => api.get<{ retention: Retention }>('/company/retention').then((r) => r.retention),
});

/** GET /company/retention: how long messages and calls are kept (null: kept). */
export const useRetention = () => useQuery(retentionQuery());

/** PUT /company/retention (owners and admins): applies to messages and calls written from now on. */
export function useSaveRetention() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (retention: Retention) =>
      api
        .request<{ retention: Retention }>('/company/retention', { method: 'PUT', body: retention })
        .then((r) => r.data.retention),
    onSuccess: (retention) => client.setQueryData(retentionQuery().queryKey, retention),
    retry: false,
  });
}
