import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { twilioSignature } from './signature';

describe('twilioSignature', () => {
  it("matches Twilio's documented example", () => {
    const params = {
      CallSid: 'CA1234567890ABCDE',
      Caller: '+12349013030',
      Digits: '1234',
      From: '+12349013030',
      To: '+18005551212',
    };
    expect(twilioSignature('12345', 'https://mycompany.com/myapp.php?foo=1&bar=2', params)).toBe('0/KCTR6DLpKmkAf8muzZqo1nDgQ=');
  });

  it('does not depend on the order the parameters come in', () => {
    const url = 'https://example.com/webhooks/sms';
    expect(twilioSignature('token', url, { To: '+1', From: '+2', Body: 'hi' })).toBe(
      twilioSignature('token', url, { Body: 'hi', From: '+2', To: '+1' }),
    );
  });

  it('signs a repeated parameter with each of its values, sorted', () => {
    const url = 'https://example.com/webhooks/status';
    const byHand = createHmac('sha1', 'token').update(`${url}MediaUrlaMediaUrlb`).digest('base64');
    expect(twilioSignature('token', url, { MediaUrl: ['b', 'a'] })).toBe(byHand);
  });

  it('changes with the URL, a parameter value or the auth token', () => {
    const base = twilioSignature('token', 'https://example.com/a', { Body: 'hi' });
    expect(twilioSignature('token', 'https://example.com/b', { Body: 'hi' })).not.toBe(base);
    expect(twilioSignature('token', 'https://example.com/a', { Body: 'ho' })).not.toBe(base);
    expect(twilioSignature('other', 'https://example.com/a', { Body: 'hi' })).not.toBe(base);
  });
});
