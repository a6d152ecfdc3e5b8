import { afterEach, describe, expect, it, vi } from 'vitest';
import { inboundSmsWebhook, smsStatusWebhook } from '../../shared/contract/conversations';
import { matchPath, TWILIO_WEBHOOKS } from '../../shared/contract/route';
import { callStatusWebhook } from '../../shared/contract/voice';
import { httpRoutes } from '../routes';
import { currentWebhookBase } from './webhook-base';
import { signedWebhookUrl, webhookUrls } from './webhook-urls';

afterEach(() => vi.unstubAllEnvs());

describe('webhook URLs', () => {
  it('are checked against the base recorded at import, not the app’s current address', async () => {
    vi.stubEnv('WEBHOOK_BASE_URL', '');
    vi.stubEnv('APP_URL', 'https://support.example.com/');
    // Written out: the URLs Twilio is given are what this checks.
    expect(await currentWebhookBase()).toBe('https://support.example.com/webhooks/twilio');
    const provider = { webhookBaseUrl: 'https://d111.cloudfront.net/webhooks/twilio', webhookId: 'hook1' };
    expect(signedWebhookUrl(provider, inboundSmsWebhook)).toBe('https://d111.cloudfront.net/webhooks/twilio/hook1/sms');
    expect(signedWebhookUrl(provider, callStatusWebhook)).toBe('https://d111.cloudfront.net/webhooks/twilio/hook1/voice/status');
    expect(signedWebhookUrl(provider, smsStatusWebhook)).toBe('https://d111.cloudfront.net/webhooks/twilio/hook1/sms/status');
  });

  it('refuse to guess for a provider without a recorded base', () => {
    expect(() => signedWebhookUrl({ webhookId: 'hook1' }, inboundSmsWebhook)).toThrow(/No webhook base URL/);
  });

  it("are the Twilio routes' paths: each URL given to Twilio reaches one, and every one is given", () => {
    const origin = 'https://d111.cloudfront.net';
    const urls = Object.values(webhookUrls(`${origin}${TWILIO_WEBHOOKS}/`, 'hook1'));
    const twilioRoutes = httpRoutes.filter((r) => r.contract.auth === 'twilio');
    const reached = urls.map((url) => {
      const path = url.slice(origin.length);
      const route = twilioRoutes.find((r) => matchPath(r.contract.path, path)?.webhookId === 'hook1');
      expect(route, url).toBeDefined();
      return route?.contract.path;
    });
    expect(new Set(reached)).toEqual(new Set(twilioRoutes.map((r) => r.contract.path)));
  });
});
