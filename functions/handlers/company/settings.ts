import { companySettings } from '@shared/contract/voice';
import { companySettings as settingsOf } from '../../company/settings';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(companySettings, async ({ principal }) => ({
  data: { settings: await settingsOf(principal.companyId) },
}));
