import type { NumberApplication, ProviderNumber } from '@shared/contract/settings';

export interface CurrentUse {
  capability: 'voice' | 'sms';
  /** Where that capability goes now: a URL, or a TwiML application by name and SID. */
  target: string;
}

const application = (app: NumberApplication) =>
  app.friendlyName ? `the TwiML app “${app.friendlyName}” (${app.sid})` : `the TwiML app ${app.sid}`;

/**
 * Where a number's calls and texts go now, outside Switchboard: what importing it takes over. An
 * application outranks the number's own URL at Twilio, so it is the one named when both are set.
 */
export function currentUse(number: ProviderNumber): CurrentUse[] {
  const uses: CurrentUse[] = [];
  const voice = number.voiceApplication ? application(number.voiceApplication) : number.voiceUrl;
  const sms = number.smsApplication ? application(number.smsApplication) : number.smsUrl;
  if (voice && number.capabilities.voice) uses.push({ capability: 'voice', target: voice });
  if (sms && number.capabilities.sms) uses.push({ capability: 'sms', target: sms });
  return uses;
}
