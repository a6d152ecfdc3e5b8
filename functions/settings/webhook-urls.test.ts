import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentWebhookBase } from './webhook-base';
import { signedWebhookUrl } from './webhook-urls';

afterEach(() => vi.unstubAllEnvs());

describe('webhook URLs', () => {
  it('are checked against the base recorded at import, not the app’s current address', async () => {
    vi.stubEnv('WEBHOOK_BASE_URL', '');
    vi.stubEnv('APP_URL', 'https://support.example.com/');
    expect(await currentWebhookBase()).toBe('https://support.example.com/webhooks/twilio');
    const provider = { webhookBaseUrl: 'https://d111.cloudfront.net/webhooks/twilio', webhookId: 'hook1' };
    expect(signedWebhookUrl(provider, 'sms')).toBe('https://d111.cloudfront.net/webhooks/twilio/hook1/sms');
    expect(signedWebhookUrl(provider, 'voiceStatus')).toBe('https://d111.cloudfront.net/webhooks/twilio/hook1/voice/status');
    expect(signedWebhookUrl(provider, 'smsStatus')).toBe('https://d111.cloudfront.net/webhooks/twilio/hook1/sms/status');
  });

  it('refuse to guess for a provider without a recorded base', () => {
    expect(() => signedWebhookUrl({ webhookId: 'hook1' }, 'sms')).toThrow(/No webhook base URL/);
  });
});
