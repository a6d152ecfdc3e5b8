import { companySettings } from '../../../shared/contract/voice';
import { defineHandler } from '../../lib/define-handler';
import { companySettings as settingsOf } from '../../voice/company-settings';

export const handler = defineHandler(companySettings, async ({ principal }) => ({
  data: { settings: await settingsOf(principal.companyId) },
}));
