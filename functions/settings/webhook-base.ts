import { TWILIO_WEBHOOKS } from '../../shared/contract/route';
import { setting } from '../lib/config';

/**
 * Where Twilio reaches the platform now: WEBHOOK_BASE_URL locally (Twilio calls the gateway), else
 * the app URL (CloudFront) with `/webhooks/twilio`. Read only when pointing something at the
 * platform; the result is recorded there (see signedWebhookUrl).
 */
export async function currentWebhookBase(): Promise<string> {
  const base = process.env.WEBHOOK_BASE_URL || `${(await setting('APP_URL')).replace(/\/$/, '')}${TWILIO_WEBHOOKS}`;
  return base.replace(/\/$/, '');
}
