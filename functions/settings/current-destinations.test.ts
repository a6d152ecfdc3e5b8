import { describe, expect, it } from 'vitest';
import { TWILIO_WEBHOOKS } from '../../shared/contract/route';
import type { TwilioIncomingNumber } from '../twilio/rest-client';
import { currentDestinations, shownUrl } from './current-destinations';
import { webhookUrls } from './webhook-urls';

const number = (fields: Partial<TwilioIncomingNumber>): TwilioIncomingNumber => ({
  sid: 'PN1',
  phone_number: '+14155550104',
  friendly_name: 'Legacy IVR',
  capabilities: { voice: true, sms: true },
  sms_url: '',
  sms_method: 'POST',
  voice_url: '',
  voice_method: 'POST',
  status_callback: '',
  status_callback_method: 'POST',
  ...fields,
});
const provider = { webhookId: 'wh-1', webhookBaseUrl: `https://app.example.com${TWILIO_WEBHOOKS}`, twimlAppSid: 'APours' };

describe('shownUrl', () => {
  it('keeps scheme, host and path, never credentials, query or fragment', () => {
    expect(shownUrl('https://user:secret@ivr.example.com:8443/voice?token=abc#x')).toBe('https://ivr.example.com:8443/voice');
    expect(shownUrl('http://ivr.example.com')).toBe('http://ivr.example.com/');
    expect(shownUrl('')).toBeNull();
    expect(shownUrl(null)).toBeNull();
    expect(shownUrl('not a url')).toBeNull();
  });
});

describe('currentDestinations', () => {
  it('names the URLs and applications a number uses now', () => {
    const names = new Map([['APivr', 'Old IVR']]);
    expect(
      currentDestinations(
        number({
          voice_url: 'https://ivr.example.com/voice',
          sms_url: '',
          voice_application_sid: 'APivr',
          sms_application_sid: 'APgone',
        }),
        provider,
        names,
      ),
    ).toEqual({
      voiceUrl: 'https://ivr.example.com/voice',
      smsUrl: null,
      voiceApplication: { sid: 'APivr', friendlyName: 'Old IVR' },
      smsApplication: { sid: 'APgone', friendlyName: null },
    });
  });

  it('leaves out what is already Switchboard’s: its webhooks and its TwiML application', () => {
    expect(
      currentDestinations(
        number({
          voice_url: webhookUrls(provider.webhookBaseUrl, provider.webhookId).voice,
          // Its webhook id on another address still names it.
          sms_url: webhookUrls(`https://old-domain.example.com${TWILIO_WEBHOOKS}`, provider.webhookId).sms,
          voice_application_sid: 'APours',
          sms_application_sid: null,
        }),
        provider,
        new Map(),
      ),
    ).toEqual({ voiceUrl: null, smsUrl: null, voiceApplication: null, smsApplication: null });
  });
});
