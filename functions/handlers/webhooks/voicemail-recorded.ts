import { voicemailRecordedWebhook } from '@shared/contract/voice';
import { defineWebhook } from '../../lib/define-webhook';
import { hangUp } from '../../voice/twiml';

/** The caller finished their message: the call ends; the recording arrives by its status callback. */
export const handler = defineWebhook(voicemailRecordedWebhook, async () => hangUp());
