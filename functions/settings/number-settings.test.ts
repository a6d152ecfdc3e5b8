import { describe, expect, it } from 'vitest';
import { TWILIO_WEBHOOKS } from '../../shared/contract/route';
import type { TwilioIncomingNumber } from '../twilio/rest-client';
import { changedSettings, importedSettings } from './number-settings';
import { webhookUrls } from './webhook-urls';

const urls = webhookUrls(`https://app.example.com${TWILIO_WEBHOOKS}`, 'hook1');

const number = (overrides: Partial<TwilioIncomingNumber> = {}): TwilioIncomingNumber => ({
  sid: 'PN1',
  phone_number: '+12025550100',
  friendly_name: 'Main line',
  capabilities: { voice: true, sms: true, mms: true },
  sms_url: urls.sms,
  sms_method: 'POST',
  voice_url: urls.voice,
  voice_method: 'POST',
  status_callback: urls.voiceStatus,
  status_callback_method: 'POST',
  voice_application_sid: null,
  sms_application_sid: '',
  ...overrides,
});

describe('what import sets on a number', () => {
  it('covers only the capabilities pointed at the platform, with no TwiML application outranking them', () => {
    expect(importedSettings({ voice: false, sms: true }, urls)).toEqual({
      SmsUrl: urls.sms,
      SmsMethod: 'POST',
      SmsApplicationSid: '',
    });
    expect(Object.keys(importedSettings({ voice: true, sms: false }, urls)).sort()).toEqual([
      'StatusCallback',
      'StatusCallbackMethod',
      'VoiceApplicationSid',
      'VoiceMethod',
      'VoiceUrl',
    ]);
  });

  it('changes nothing on a number that has it (no application as null or empty, methods in any case)', () => {
    const wanted = importedSettings({ voice: true, sms: true }, urls);
    expect(changedSettings(number({ sms_method: 'post' }), wanted)).toEqual({});
  });

  it('sends only what differs: a foreign URL and an application that outranks the number', () => {
    const wanted = importedSettings({ voice: true, sms: true }, urls);
    const drifted = number({ sms_url: 'https://studio.example.com/flow', voice_application_sid: 'AP1' });
    expect(changedSettings(drifted, wanted)).toEqual({ SmsUrl: urls.sms, VoiceApplicationSid: '' });
  });
});
