import type { Retention } from '@shared/contract/company';
import * as account from '@shared/contract/endpoints/account';
import * as company from '@shared/contract/endpoints/company';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { profileQuery } from '@/lib/profile';
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

/** PATCH /company (owner only): the name every member sees, written into the stored session at once. */
export const renameCompany = (name: string) => api.call(account.renameCompany, { body: { name } }).then((d) => d.company);

export function useRenameCompany() {
  return useMutation({
    mutationFn: renameCompany,
    onSuccess: (renamed) => {
      const current = session.get();
      if (current) session.setProfile({ user: current.user, company: renamed });
      void queryClient.invalidateQueries({ queryKey: profileQuery().queryKey });
    },
    retry: false,
  });
}
