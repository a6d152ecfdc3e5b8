import { updateCallingSettings } from '@shared/contract/voice';
import { saveCallingSettings } from '../../company/calling-settings';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(updateCallingSettings, async ({ principal, body }) => ({
  data: { calling: await saveCallingSettings(principal.companyId, principal.role, body) },
}));
