import { type AccountRecord, type ApiKeyRecord, type ApplicationRecord, type PhoneNumberRecord, rfc2822 } from './model';

/** Resources as Twilio's API 2010-04-01 writes them: snake_case fields, RFC 2822 dates, relative URIs. */
export const API_VERSION = '2010-04-01';

export const accountPath = (accountSid: string) => `/${API_VERSION}/Accounts/${accountSid}`;

export function accountResource(account: AccountRecord) {
  const base = accountPath(account.sid);
  return {
    sid: account.sid,
    friendly_name: account.friendlyName,
    status: 'active',
    type: 'Full',
    auth_token: account.authToken,
    owner_account_sid: account.sid,
    date_created: rfc2822(account.dateCreated),
    date_updated: rfc2822(account.dateUpdated),
    uri: `${base}.json`,
    // Only the subresources the emulator answers.
    subresource_uris: {
      incoming_phone_numbers: `${base}/IncomingPhoneNumbers.json`,
      applications: `${base}/Applications.json`,
      keys: `${base}/Keys.json`,
      messages: `${base}/Messages.json`,
      calls: `${base}/Calls.json`,
    },
  };
}

export function phoneNumberResource(account: AccountRecord, number: PhoneNumberRecord) {
  return {
    sid: number.sid,
    account_sid: account.sid,
    friendly_name: number.friendlyName,
    phone_number: number.phoneNumber,
    capabilities: { ...number.capabilities },
    voice_url: number.voiceUrl,
    voice_method: number.voiceMethod,
    voice_fallback_url: number.voiceFallbackUrl,
    voice_fallback_method: number.voiceFallbackMethod,
    voice_caller_id_lookup: false,
    voice_application_sid: number.voiceApplicationSid,
    voice_receive_mode: 'voice',
    status_callback: number.statusCallback,
    status_callback_method: number.statusCallbackMethod,
    sms_url: number.smsUrl,
    sms_method: number.smsMethod,
    sms_fallback_url: number.smsFallbackUrl,
    sms_fallback_method: number.smsFallbackMethod,
    sms_application_sid: number.smsApplicationSid,
    trunk_sid: null,
    address_sid: null,
    address_requirements: 'none',
    identity_sid: null,
    bundle_sid: null,
    emergency_status: 'Inactive',
    emergency_address_sid: null,
    emergency_address_status: 'unregistered',
    origin: 'twilio',
    status: 'in-use',
    // The emulator's numbers are all geographic US numbers.
    type: 'local',
    beta: false,
    api_version: API_VERSION,
    date_created: rfc2822(number.dateCreated),
    date_updated: rfc2822(number.dateUpdated),
    uri: `${accountPath(account.sid)}/IncomingPhoneNumbers/${number.sid}.json`,
  };
}

export function applicationResource(account: AccountRecord, application: ApplicationRecord) {
  return {
    sid: application.sid,
    account_sid: account.sid,
    friendly_name: application.friendlyName,
    voice_url: application.voiceUrl,
    voice_method: application.voiceMethod,
    voice_fallback_url: application.voiceFallbackUrl,
    voice_fallback_method: application.voiceFallbackMethod,
    voice_caller_id_lookup: false,
    status_callback: application.statusCallback,
    status_callback_method: application.statusCallbackMethod,
    sms_url: application.smsUrl,
    sms_method: application.smsMethod,
    sms_fallback_url: application.smsFallbackUrl,
    sms_fallback_method: application.smsFallbackMethod,
    sms_status_callback: application.smsStatusCallback,
    message_status_callback: application.messageStatusCallback,
    public_application_connect_enabled: false,
    api_version: API_VERSION,
    date_created: rfc2822(application.dateCreated),
    date_updated: rfc2822(application.dateUpdated),
    uri: `${accountPath(account.sid)}/Applications/${application.sid}.json`,
  };
}

/** A key's secret appears once, in the answer that creates it. */
export function apiKeyResource(key: ApiKeyRecord, options: { withSecret?: boolean } = {}) {
  return {
    sid: key.sid,
    friendly_name: key.friendlyName,
    date_created: rfc2822(key.dateCreated),
    date_updated: rfc2822(key.dateUpdated),
    ...(options.withSecret ? { secret: key.secret } : {}),
  };
}
