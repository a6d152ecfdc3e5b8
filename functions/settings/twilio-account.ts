import { AppError } from '../lib/app-error';
import { decryptSecret } from '../lib/secrets';
import { type NumberUpdate, TwilioApiError, type TwilioIncomingNumber, twilioClient } from '../twilio/rest-client';
import type { PreviousNumberUrls, ProviderRecord } from './records';

/** What the product touches in a customer's Twilio account, shared by connect, import and disconnect. */

/**
 * The name of what a connect creates in the customer's account: it finds a key or an application
 * whose creation answer was lost (a timeout mid-call), so undoing the connect removes it too.
 */
export const createdObjectName = (providerId: string) => `Switchboard ${providerId}`;

/**
 * Twilio's answers mapped to what a person can act on; never a 500 for the vendor's failure: 502 when
 * Twilio answered with an error or could not be reached, 504 when it did not answer in time.
 */
export function fromTwilio(error: unknown, action: string): never {
  if (error instanceof TwilioApiError) {
    if (error.isAuthFailure) {
      throw new AppError(400, 'PROVIDER_AUTH_FAILED', 'Twilio rejected these credentials. Check the Account SID and Auth Token.');
    }
    if (error.timedOut) {
      throw new AppError(504, 'PROVIDER_TIMEOUT', `Twilio did not answer in time to ${action}. Please try again.`);
    }
    const answered = error.status ? ` (Twilio answered ${error.status}${error.code ? `, error ${error.code}` : ''})` : '';
    throw new AppError(502, 'PROVIDER_UNAVAILABLE', `Twilio could not ${action}: ${error.message}${answered}. Please try again.`);
  }
  throw error;
}

export async function clientFor(provider: ProviderRecord) {
  const authToken = await decryptSecret(provider.authTokenEncrypted, provider.companyId);
  return twilioClient({ accountSid: provider.accountSid, username: provider.accountSid, password: authToken });
}

export function capabilitiesOf(number: TwilioIncomingNumber) {
  return {
    voice: Boolean(number.capabilities.voice),
    sms: Boolean(number.capabilities.sms),
    mms: Boolean(number.capabilities.mms),
  };
}

/** Only what import changed goes back: a capability left alone at import stays as it is now. */
export function restoreUpdate(imported: {
  enabled?: { voice: boolean; sms: boolean };
  previousUrls?: PreviousNumberUrls;
}): NumberUpdate {
  const p = imported.previousUrls ?? {};
  const update: NumberUpdate = {};
  if (imported.enabled?.sms) {
    Object.assign(update, { SmsUrl: p.SmsUrl ?? '', SmsMethod: p.SmsMethod ?? 'POST' });
    if (p.SmsApplicationSid) update.SmsApplicationSid = p.SmsApplicationSid;
  }
  if (imported.enabled?.voice) {
    Object.assign(update, {
      VoiceUrl: p.VoiceUrl ?? '',
      VoiceMethod: p.VoiceMethod ?? 'POST',
      StatusCallback: p.StatusCallback ?? '',
      StatusCallbackMethod: p.StatusCallbackMethod ?? 'POST',
    });
    if (p.VoiceApplicationSid) update.VoiceApplicationSid = p.VoiceApplicationSid;
  }
  return update;
}
