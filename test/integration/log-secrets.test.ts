import { readFileSync } from 'node:fs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { keys } from '../../functions/lib/table';
import { callRoute, newClientAddress, stack } from '../support/api';
import { endpoints } from '../support/endpoints';
import { sendText, smsLine } from '../support/sms';
import { testTable } from '../support/table';
import { callFromPhone, emulatorMessages, newTwilioAccount, textFromPhone } from '../support/twilio';
import { voiceToken } from '../support/voice';

/**
 * Runs the flows that handle secrets — sign-up, sign-in (right and wrong password), refresh, connecting
 * Twilio (right and wrong auth token), a voice token, an inbound and an outbound text with its status
 * callbacks, an inbound call — and then reads everything the product logged meanwhile (the handlers'
 * console, the gateway's request lines: test/support/captured-log.ts): none of those secrets is in it.
 */
describe('no secret in the logs', () => {
  it('passwords, access and refresh tokens, auth tokens, API key secrets and voice tokens never reach a log line', async () => {
    const line = await smsLine();
    const { account, twilio, channel, provider } = line;
    const secrets: Record<string, string> = {
      password: account.password,
      'Twilio auth token': twilio.authToken,
      'access token (sign-up)': account.tokens.accessToken,
      'refresh token (sign-up)': account.tokens.refreshToken,
    };

    const address = newClientAddress();
    const wrongPassword = `${account.password} typo`;
    secrets['wrong password'] = wrongPassword;
    expect((await callRoute(endpoints.login, { body: { email: account.email, password: wrongPassword }, address })).status).toBe(
      401,
    );
    const login = await callRoute(endpoints.login, { body: { email: account.email, password: account.password }, address });
    expect(login.status).toBe(200);
    secrets['access token (login)'] = login.body.data.tokens.accessToken;
    secrets['refresh token (login)'] = login.body.data.tokens.refreshToken;
    const refreshed = await callRoute(endpoints.refresh, { body: { refreshToken: login.body.data.tokens.refreshToken } });
    expect(refreshed.status).toBe(200);
    secrets['access token (refresh)'] = refreshed.body.data.tokens.accessToken;
    secrets['refresh token (refresh)'] = refreshed.body.data.tokens.refreshToken;
    // A spent refresh token used again, which ends the session: the path that handles a stolen one.
    await callRoute(endpoints.refresh, { body: { refreshToken: account.tokens.refreshToken } });

    const other = await newTwilioAccount();
    const wrongToken = other.authToken.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    secrets['wrong auth token'] = wrongToken;
    const refused = await callRoute(endpoints.connectTwilio, {
      token: account.tokens.accessToken,
      body: { accountSid: other.accountSid, authToken: wrongToken },
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);

    const token = await voiceToken(account);
    secrets['voice token'] = token;
    // The API key secret the product created in Twilio and keeps encrypted: decrypted here as the token's signer.
    const { Item } = await testTable().client.send(
      new GetCommand({ TableName: testTable().tableName, Key: keys.provider(account.company.id, provider.id) }),
    );
    process.env.LOCAL_SECRETS_KEY = stack().env.LOCAL_SECRETS_KEY;
    const { decryptSecret } = await import('../../functions/lib/secrets');
    secrets['API key secret'] = await decryptSecret(String(Item?.apiKeySecretEncrypted), account.company.id);
    secrets['JWT signing key'] = stack().env.JWT_SECRET;
    secrets['origin secret'] = stack().env.ORIGIN_SECRET;

    const phone = '+12025550123';
    const inbound = await textFromPhone({ from: phone, to: channel.identifier, body: 'Hello there' });
    expect(inbound.webhook?.status).toBe(200);
    const list = await callRoute(endpoints.listConversations, { token: account.tokens.accessToken });
    const conversationId = list.body.data.conversations[0]?.id ?? '';
    expect((await sendText(account, conversationId, 'On it')).status).toBe(201);
    await expect
      .poll(async () => (await emulatorMessages(twilio.accountSid)).find((m) => m.body === 'On it')?.callbacks.at(-1)?.status)
      .toBe(200);
    const call = await callFromPhone({ from: phone, to: channel.identifier });
    expect(call.twiml[0]?.status).toBe(200);

    // The gateway logs each request once it has answered: the call's last webhook's line shows the log is complete.
    const lastWebhook = call.callbacks.at(-1) ?? call.twiml.at(-1);
    const logged = () => readFileSync(inject('productLog'), 'utf8');
    await expect.poll(logged).toContain(`[gateway] POST ${new URL(lastWebhook?.url ?? '').pathname} 200`);
    expect(logged()).toContain(`[gateway] ${endpoints.refresh.method} ${endpoints.refresh.path} 200`);
    const log = logged();
    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret.length, name).toBeGreaterThan(7);
      expect(log.includes(secret), `${name} is in the log`).toBe(false);
    }
  });
});
