import type { Channel } from '@shared/contract/settings';

/** The provider's name for a number, unless it only repeats the number (Twilio's default name). */
export function friendlyNameOf(channel: Pick<Channel, 'identifier' | 'friendlyName'>): string | null {
  const name = channel.friendlyName?.trim();
  if (!name) return null;
  const digits = (text: string) => text.replace(/\D/g, '');
  return digits(name) && digits(channel.identifier).endsWith(digits(name)) ? null : name;
}
