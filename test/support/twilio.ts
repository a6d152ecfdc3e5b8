import { stack } from './api';

/** A Twilio account of the emulator, as the customer would paste it into Connect. */
export interface TwilioAccount {
  accountSid: string;
  authToken: string;
  numbers: {
    sid: string;
    phone_number: string;
    friendly_name: string;
    capabilities: { voice: boolean; sms: boolean; mms: boolean };
  }[];
}

const emulator = () => stack().urls.twilio;

/** A fresh emulator account per test, so tests never share numbers. */
export async function newTwilioAccount(): Promise<TwilioAccount> {
  const res = await fetch(`${emulator()}/_emulator/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (!res.ok) throw new Error(`emulator account: ${res.status} ${await res.text()}`);
  return (await res.json()) as TwilioAccount;
}

/** Reads the account through Twilio's own REST API, as the customer's console would show it. */
export async function twilioGet<T>(account: Pick<TwilioAccount, 'accountSid' | 'authToken'>, path: string): Promise<T> {
  const res = await fetch(`${emulator()}/2010-04-01/Accounts/${account.accountSid}${path}`, {
    headers: { authorization: `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}` },
  });
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export interface EmulatorNumber {
  sid: string;
  phone_number: string;
  sms_url: string;
  sms_method: string;
  voice_url: string;
  voice_method: string;
  status_callback: string;
}

export const numberOf = (account: TwilioAccount, sid: string) =>
  twilioGet<EmulatorNumber>(account, `/IncomingPhoneNumbers/${sid}.json`);

/** The numbers of a fresh account by kind: voice+SMS+MMS, SMS only, voice only, and one already in use elsewhere. */
export function numbersByKind(account: TwilioAccount) {
  const find = (predicate: (n: TwilioAccount['numbers'][number]) => boolean, kind: string) => {
    const n = account.numbers.find(predicate);
    if (!n) throw new Error(`no ${kind} number in ${JSON.stringify(account.numbers)}`);
    return n;
  };
  return {
    full: find((n) => n.capabilities.voice && n.capabilities.sms && n.capabilities.mms, 'voice+SMS+MMS'),
    smsOnly: find((n) => !n.capabilities.voice && n.capabilities.sms, 'SMS-only'),
    voiceOnly: find((n) => n.capabilities.voice && !n.capabilities.sms, 'voice-only'),
  };
}
