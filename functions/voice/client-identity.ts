/**
 * The Voice SDK identity of a user: derived from the user id only (no e-mail or name reaches Twilio
 * or the browser's signalling). Twilio client identities are safest as letters, digits and '_', so
 * the UUID's hyphens become underscores; the mapping is reversible for status callbacks.
 */
const PREFIX = 'user_';

export const clientIdentity = (userId: string) => `${PREFIX}${userId.replaceAll('-', '_')}`;

/** The user id of `client:user_…` or `user_…`; undefined for anything else (a phone number). */
export function userIdOfClient(party: string): string | undefined {
  const identity = party.startsWith('client:') ? party.slice('client:'.length) : party;
  if (!identity.startsWith(PREFIX)) return undefined;
  const id = identity.slice(PREFIX.length).replaceAll('_', '-');
  return /^[0-9a-f-]{36}$/i.test(id) ? id : undefined;
}
