import { twilioSignature } from '@switchboard/twilio-emulator/signature';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, callRoute } from '../support/api';
import { endpoints } from '../support/endpoints';
import { inboundParams, newPhone, type SmsLine, smsLine } from '../support/sms';

/** What every answer of the API carries, whatever its route, status or type. */
const EXPECTED = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

const securityHeaders = (headers: Headers) => Object.fromEntries(Object.keys(EXPECTED).map((name) => [name, headers.get(name)]));

describe('security headers on API answers, through the gateway', () => {
  let line: SmsLine;
  beforeAll(async () => {
    line = await smsLine();
  });

  it('a signed-in JSON answer, a public one and error envelopes carry them', async () => {
    const answers = [
      await callRoute(endpoints.listConversations, { token: line.account.tokens.accessToken }),
      await callRoute(endpoints.health),
      await callRoute(endpoints.listConversations),
      await callRoute(endpoints.login, { rawBody: '{"email": ', headers: { 'content-type': 'application/json' } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 400]);
    for (const answer of answers) {
      expect(securityHeaders(answer.headers)).toEqual(EXPECTED);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    }
  });

  it("the $default route's 404 and 405 carry them", async () => {
    // A path no route has: typed by hand, since no endpoint names it.
    const unknown = await api('/api/v1/no-such-thing');
    // A route's path with a method it does not take.
    const wrongMethod = await api(endpoints.health.path, { method: 'DELETE' });
    expect([unknown.status, wrongMethod.status]).toEqual([404, 405]);
    expect(securityHeaders(unknown.headers)).toEqual(EXPECTED);
    expect(securityHeaders(wrongMethod.headers)).toEqual(EXPECTED);
  });

  it("a Twilio webhook's TwiML and its refusal carry them", async () => {
    const params = inboundParams(line, { from: newPhone(), body: 'Hello' });
    const post = (signature: string) =>
      fetch(line.smsUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
        body: new URLSearchParams(params).toString(),
      });
    const twiml = await post(twilioSignature(line.twilio.authToken, line.smsUrl, params));
    expect(twiml.status).toBe(200);
    expect(twiml.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    expect(securityHeaders(twiml.headers)).toEqual(EXPECTED);

    const forged = await post('forged');
    expect(forged.status).toBe(403);
    expect(securityHeaders(forged.headers)).toEqual(EXPECTED);
  });
});
