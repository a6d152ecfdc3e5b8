import { setInboxRecording } from '@shared/contract/settings';
import { defineHandler } from '../../lib/define-handler';
import { setInboxRecording as saveInboxRecording } from '../../settings/inbox-recording';

export const handler = defineHandler(setInboxRecording, async ({ principal, params, body }) => ({
  data: { inbox: await saveInboxRecording(principal.companyId, params.id, body.enabled) },
}));
