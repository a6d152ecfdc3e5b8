import { queryPrefix } from '../lib/query';
import { epochSeconds, keys } from '../lib/table';

/**
 * Who can take a call now (docs/product.md §10.5 Phone ready): a member is reachable while a tab of
 * theirs has a live socket and has said its phone is registered. One item per such socket, gone at
 * `$disconnect`, when the tab says otherwise, or once its reports stop (TTL, and read filtered by it,
 * since DynamoDB deletes expired items late).
 */

export const unexpired = (now: number) => ({ expression: 'expiresAt > :now', values: { ':now': now } });

/** The members of the company with a reachable phone: one Query (the voice webhook's). */
export async function readyUserIds(companyId: string, now = epochSeconds()): Promise<Set<string>> {
  const items = await queryPrefix<{ userId: string }>(keys.phonesReadyOf(companyId), {
    filter: unexpired(now),
    projection: 'userId',
    consistent: true,
  });
  return new Set(items.map((item) => item.userId));
}

export async function userIsReady(companyId: string, userId: string, now = epochSeconds()): Promise<boolean> {
  const items = await queryPrefix(keys.phonesReadyOfUser(companyId, userId), { filter: unexpired(now), consistent: true });
  return items.length > 0;
}
