import { useMutation } from '@tanstack/react-query';
import type { CompanyDeletion } from '../../../../../shared/contract/company';
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
