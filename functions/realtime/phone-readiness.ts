import { queryPrefix } from '../lib/query';
import { epochSeconds, keys } from '../lib/table';

/**
 * Who can take a call now (docs/product.md §10.5 Phone ready): a member is reachable while a tab of
 * theirs has a live socket and has said its phone is registered. One item per such socket, gone when
 * the tab says otherwise, or once its reports stop (TTL, and read filtered by it, since DynamoDB
 * deletes expired items late). At `$disconnect` the item stays for the reload grace, marked `closedAt`:
 * only a call's decision to ring counts it (PHONE_RELOAD_GRACE_SECONDS).
 */

export const unexpired = (now: number) => ({ expression: 'expiresAt > :now', values: { ':now': now } });

/** Unexpired, and its socket still open: what Team and Manage Members show. */
const open = (now: number) => ({
  expression: 'expiresAt > :now AND attribute_not_exists(closedAt)',
  values: { ':now': now },
});

/**
 * The members of the company with a reachable phone: one Query. `withinReloadGrace` counts too the
 * phones whose socket closed less than the grace ago: the voice webhook's view, whether to ring at all.
 */
export async function readyUserIds(
  companyId: string,
  now = epochSeconds(),
  options: { withinReloadGrace?: boolean } = {},
): Promise<Set<string>> {
  const items = await queryPrefix<{ userId: string }>(keys.phonesReadyOf(companyId), {
    filter: options.withinReloadGrace ? unexpired(now) : open(now),
    projection: 'userId',
    consistent: true,
  });
  return new Set(items.map((item) => item.userId));
}

export async function userIsReady(companyId: string, userId: string, now = epochSeconds()): Promise<boolean> {
  const items = await queryPrefix(keys.phonesReadyOfUser(companyId, userId), { filter: open(now), consistent: true });
  return items.length > 0;
}
