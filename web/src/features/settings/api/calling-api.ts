import * as voice from '@shared/contract/endpoints/voice';
import type { CompanySettings } from '@shared/contract/voice';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BodyOf } from '@/lib/api-client';
import { companySettingsQuery } from '@/lib/company-settings';
import { api } from '@/lib/services';

/** The company's calling settings, from the company settings every screen shares (GET /company/settings). */
export function useCallingSettings() {
  return useQuery({ ...companySettingsQuery(), select: (settings) => settings.calling });
}

/** PUT /company/settings/calling: owners and admins; the rate is the owner's. */
export const saveCallingSettings = (calling: BodyOf<typeof voice.updateCallingSettings>) =>
  api.call(voice.updateCallingSettings, { body: calling }).then((d) => d.calling);

export function useSaveCallingSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCallingSettings,
    onSuccess: (calling) =>
      queryClient.setQueryData(companySettingsQuery().queryKey, (settings: CompanySettings | undefined) =>
        settings ? { ...settings, calling } : settings,
      ),
    retry: false,
  });
}
