import { readFileSync } from 'node:fs';
import { twilioSignature } from '@switchboard/twilio-emulator/signature';
import { describe, expect, inject, it } from 'vitest';
import { endpoints } from '../support/endpoints';
import { inboundParams, newPhone, postWebhook, smsLine, webhookIdOf } from '../support/sms';

/** The product's log lines (test/support/captured-log.ts) that are JSON objects with this webhook id. */
function loggedFor(webhookId: string): Record<string, unknown>[] {
  return readFileSync(inject('productLog'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes(webhookId))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * Every refused Twilio signature leaves one log line an operator can find by webhook id (docs/operations.md:
 * Logs), and nothing Twilio signed or signed with is in it.
 */
describe('a refused webhook signature', () => {
  it('logs one JSON line with the webhook id, route and reason, without the signature, auth token or body', async () => {
    const line = await smsLine();
    const webhookId = webhookIdOf(line);
    const phone = newPhone();
    const statusUrl = `${line.smsUrl}/status`;

    // Signed with another key, unsigned, and Twilio's genuine signature over other parameters.
    const wrongKey = 'f'.repeat(32);
    const forged = inboundParams(line, { from: phone, body: 'forged text 7f3a' });
    const forgedSignature = twilioSignature(wrongKey, line.smsUrl, forged);
    const unsigned = inboundParams(line, { from: phone, body: 'unsigned text 9c1e' });
    const tampered = inboundParams(line, { from: phone, body: 'tampered text 2b8d' });
    const genuineSignature = twilioSignature(line.twilio.authToken, line.smsUrl, { ...tampered, Body: 'what was signed' });
    const answers = [
      await postWebhook(line.smsUrl, forged, { authToken: wrongKey }),
      await postWebhook(statusUrl, unsigned, { authToken: line.twilio.authToken, signature: null }),
      await postWebhook(line.smsUrl, tampered, { authToken: line.twilio.authToken, signature: genuineSignature }),
    ];
    expect(answers.map((a) => a.status)).toEqual([403, 403, 403]);

    await expect.poll(() => loggedFor(webhookId).length).toBe(3);
    const logged = loggedFor(webhookId);
    const common = { level: 'warn', event: 'webhook_signature_refused', webhookId, companyId: line.account.company.id };
    const route = ({ method, path }: { method: string; path: string }) => `${method} ${path}`;
    const { inboundSmsWebhook, smsStatusWebhook } = endpoints;
    expect(logged).toEqual([
      expect.objectContaining({ ...common, reason: 'mismatch', route: route(inboundSmsWebhook) }),
      expect.objectContaining({ ...common, reason: 'missing', route: route(smsStatusWebhook) }),
      expect.objectContaining({ ...common, reason: 'mismatch', route: route(inboundSmsWebhook) }),
    ]);
    // The API Gateway request id, to find the access log line (and there the Lambda request id).
    for (const entry of logged) expect(entry.apiRequestId).toEqual(expect.any(String));

    const text = JSON.stringify(logged);
    const secrets = {
      'forged signature': forgedSignature,
      'genuine signature': genuineSignature,
      'auth token': line.twilio.authToken,
      'forged body': forged.Body,
      'unsigned body': unsigned.Body,
      'tampered body': tampered.Body,
      'signed body': 'what was signed',
      'sender number': phone,
    };
    for (const [name, secret] of Object.entries(secrets)) expect(text.includes(secret), `${name} is in the log`).toBe(false);
  });

  it('logs nothing for a webhook Twilio signed', async () => {
    const line = await smsLine();
    const webhookId = webhookIdOf(line);
    const answer = await postWebhook(line.smsUrl, inboundParams(line, { from: newPhone(), body: 'genuine' }), {
      authToken: line.twilio.authToken,
    });
    expect(answer.status).toBe(200);
    expect(loggedFor(webhookId).filter((entry) => entry.event === 'webhook_signature_refused')).toEqual([]);
  });
});
