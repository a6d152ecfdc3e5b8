import { createHash } from 'node:crypto';
import {
  type AccountRecord,
  type DemoCredentials,
  type EmulatorState,
  type NumberCapabilities,
  newAuthToken,
  newSid,
  type PhoneNumberRecord,
} from './model';
import { countryOf } from './phone-numbers';

/**
 * Every account starts with the same four kinds of number, so each import case can be tried:
 * voice+SMS+MMS, SMS only, voice only, and one already wired to another application's webhooks.
 */
const NUMBER_KINDS: { friendlyName: string; capabilities: NumberCapabilities; voiceUrl?: string; smsUrl?: string }[] = [
  { friendlyName: 'Main line', capabilities: { voice: true, sms: true, mms: true, fax: false } },
  { friendlyName: 'SMS line', capabilities: { voice: false, sms: true, mms: false, fax: false } },
  { friendlyName: 'Voice line', capabilities: { voice: true, sms: false, mms: false, fax: false } },
  {
    friendlyName: 'Legacy IVR',
    capabilities: { voice: true, sms: true, mms: false, fax: false },
    voiceUrl: 'https://legacy-ivr.example.com/voice',
    smsUrl: 'https://legacy-ivr.example.com/sms',
  },
];

/** The demo account's numbers: (415) 555-0101 to -0104. 555-0100 to 555-0199 is reserved for fiction in every area code. */
const DEMO_AREA_CODE = '415';

/**
 * Area codes for the numbers of further accounts, 100 fictional lines (555-0100 to -0199) each: every
 * geographic-looking NXX code except N9X (reserved), N11 (service codes) and the demo account's, and
 * only the United States' — Canada and the Caribbean share +1, and a company's country follows its
 * first number, so a test account must not turn Canadian by chance.
 */
const AREA_CODES = Array.from({ length: 799 }, (_, i) => String(201 + i)).filter(
  (code) => code[1] !== '9' && !code.endsWith('11') && code !== DEMO_AREA_CODE && countryOf(`+1${code}5550100`) === 'US',
);

function line(index: number) {
  return `555${String(100 + index).padStart(4, '0')}`;
}

function seededNumber(accountSid: string, phoneNumber: string, kind: (typeof NUMBER_KINDS)[number], at: string) {
  const record: PhoneNumberRecord = {
    // Derived from account and number, so a reset brings the demo numbers back with the same SIDs.
    sid: `PN${createHash('sha256').update(`${accountSid}:${phoneNumber}`).digest('hex').slice(0, 32)}`,
    phoneNumber,
    friendlyName: kind.friendlyName,
    capabilities: { ...kind.capabilities },
    voiceUrl: kind.voiceUrl ?? '',
    voiceMethod: 'POST',
    voiceFallbackUrl: '',
    voiceFallbackMethod: 'POST',
    statusCallback: '',
    statusCallbackMethod: 'POST',
    voiceApplicationSid: '',
    smsUrl: kind.smsUrl ?? '',
    smsMethod: 'POST',
    smsFallbackUrl: '',
    smsFallbackMethod: 'POST',
    smsApplicationSid: '',
    dateCreated: at,
    dateUpdated: at,
  };
  return record;
}

function account(
  at: string,
  sid: string,
  authToken: string,
  friendlyName: string,
  demo: boolean,
  phoneNumbers: string[],
): AccountRecord {
  return {
    sid,
    authToken,
    friendlyName,
    demo,
    dateCreated: at,
    dateUpdated: at,
    numbers: NUMBER_KINDS.map((kind, i) => seededNumber(sid, phoneNumbers[i] ?? '', kind, at)),
    applications: [],
    keys: [],
    messages: [],
    optOuts: [],
    calls: [],
    messagingServices: [],
    recordings: [],
    conferences: [],
  };
}

/** `at`: when it is created, as the store's clock says. */
export function demoAccount(demo: DemoCredentials, at: string): AccountRecord {
  const numbers = NUMBER_KINDS.map((_, i) => `+1${DEMO_AREA_CODE}${line(1 + i)}`);
  return account(at, demo.accountSid, demo.authToken, 'Switchboard demo', true, numbers);
}

export function initialState(demo: DemoCredentials, at: string): EmulatorState {
  return { version: 1, accounts: [demoAccount(demo, at)], numbersAllocated: 0 };
}

/** A further account with four numbers no other account has. */
export function additionalAccount(state: EmulatorState, at: string, friendlyName?: string): AccountRecord {
  const numbers = NUMBER_KINDS.map(() => {
    const index = state.numbersAllocated++;
    const areaCode = AREA_CODES[Math.floor(index / 100)];
    if (!areaCode) throw new Error('The Twilio emulator has handed out every fictional number it has.');
    return `+1${areaCode}${line(index % 100)}`;
  });
  const sid = newSid('AC');
  return account(at, sid, newAuthToken(), friendlyName || `Emulated account ${sid.slice(-6)}`, false, numbers);
}
