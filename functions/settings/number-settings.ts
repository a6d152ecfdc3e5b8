import type { NumberUpdate, TwilioIncomingNumber } from '../twilio/rest-client';
import type { webhookUrls } from './webhook-urls';

/**
 * A number's own settings in Twilio as the platform wants them. Apart from webhook-urls.ts, which
 * webhooks use to check signatures without the Twilio client.
 */

/**
 * What import sets on a number, in Twilio's names, for the capabilities it points at the platform:
 * the one rule that import applies, a health check compares with and a repair or re-point puts back.
 * A TwiML application outranks the number's own URLs at Twilio, so a capability taken over has none.
 */
export function importedSettings(enabled: { voice: boolean; sms: boolean }, urls: ReturnType<typeof webhookUrls>): NumberUpdate {
  return {
    ...(enabled.sms && { SmsUrl: urls.sms, SmsMethod: 'POST', SmsApplicationSid: '' }),
    ...(enabled.voice && {
      VoiceUrl: urls.voice,
      VoiceMethod: 'POST',
      StatusCallback: urls.voiceStatus,
      StatusCallbackMethod: 'POST',
      VoiceApplicationSid: '',
    }),
  };
}

/** Where each setting is in Twilio's IncomingPhoneNumber resource. */
export const NUMBER_SETTING_FIELDS: Record<keyof NumberUpdate, keyof TwilioIncomingNumber> = {
  SmsUrl: 'sms_url',
  SmsMethod: 'sms_method',
  SmsApplicationSid: 'sms_application_sid',
  VoiceUrl: 'voice_url',
  VoiceMethod: 'voice_method',
  VoiceApplicationSid: 'voice_application_sid',
  StatusCallback: 'status_callback',
  StatusCallbackMethod: 'status_callback_method',
};

/** A setting as the number has it now: '' for none (Twilio answers null or ''); methods in capitals. */
export function numberSetting(number: TwilioIncomingNumber, field: keyof NumberUpdate): string {
  const value = number[NUMBER_SETTING_FIELDS[field]];
  const text = typeof value === 'string' ? value : '';
  return field.endsWith('Method') ? text.toUpperCase() : text;
}

/** The settings of `wanted` the number does not have yet: what an update must send. */
export function changedSettings(number: TwilioIncomingNumber, wanted: NumberUpdate): NumberUpdate {
  const update: NumberUpdate = {};
  for (const [field, value] of Object.entries(wanted) as [keyof NumberUpdate, string][]) {
    if (numberSetting(number, field) !== value) update[field] = value;
  }
  return update;
}
