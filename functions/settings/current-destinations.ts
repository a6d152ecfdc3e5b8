import type { NumberApplication, ProviderNumber } from '../../shared/contract/settings';
import type { TwilioIncomingNumber } from '../twilio/rest-client';
import type { ProviderRecord } from './records';

export type CurrentDestinations = Pick<ProviderNumber, 'voiceUrl' | 'smsUrl' | 'voiceApplication' | 'smsApplication'>;

export const NO_DESTINATIONS: CurrentDestinations = {
  voiceUrl: null,
  smsUrl: null,
  voiceApplication: null,
  smsApplication: null,
};

/**
 * A webhook URL as the company may see it: scheme, host and path. Credentials, query and fragment are
 * left out, since people put secrets there; null when there is none (or it is not a URL).
 */
export function shownUrl(raw: string | null | undefined): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return null;
  }
}

/**
 * Where a number's calls and texts go now, when that is somewhere other than this provider's own
 * webhooks and TwiML application: what an import would take over. `applicationNames` maps the
 * account's TwiML application SIDs to their names.
 */
export function currentDestinations(
  number: TwilioIncomingNumber,
  provider: Pick<ProviderRecord, 'webhookId' | 'webhookBaseUrl' | 'twimlAppSid'>,
  applicationNames: ReadonlyMap<string, string>,
): CurrentDestinations {
  const ours = (url: string) =>
    url.includes(`/${provider.webhookId}/`) || Boolean(provider.webhookBaseUrl && url.startsWith(`${provider.webhookBaseUrl}/`));
  const url = (raw: string | null) => (raw && !ours(raw) ? shownUrl(raw) : null);
  const application = (sid: string | null | undefined): NumberApplication | null =>
    sid && sid !== provider.twimlAppSid ? { sid, friendlyName: applicationNames.get(sid) ?? null } : null;
  return {
    voiceUrl: url(number.voice_url),
    smsUrl: url(number.sms_url),
    voiceApplication: application(number.voice_application_sid),
    smsApplication: application(number.sms_application_sid),
  };
}
