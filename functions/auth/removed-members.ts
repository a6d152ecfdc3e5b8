import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { REMOVED_MEMBER_NOTICE_SECONDS } from '../../shared/constants';
import { AppError } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { epochSeconds, keys } from '../lib/table';
import { getCompany, getUser, type UserRecord } from './accounts';

/**
 * What a removed member is told (docs/product.md: Removed members): by their next sign-in, once the
 * password is right, and by their open tab's refresh. No password module here: a refresh reaches this. Never "invalid password" or "session ended".
 */
export const accessRemoved = (companyName: string) =>
  new AppError(401, 'ACCESS_REMOVED', `You no longer have access to ${companyName}. Ask an owner or admin to invite you again.`);

/**
 * Written in the removal's transaction: the e-mail's login entry goes, so this is what is left to say
 * where the address was removed from. Kept a year (TTL), and only ever read after the right password.
 */
export function removedMemberItem(user: Pick<UserRecord, 'email' | 'companyId' | 'id'>) {
  return {
    ...keys.removedMember(user.email),
    entity: 'REMOVED_MEMBER',
    companyId: user.companyId,
    userId: user.id,
    expiresAt: epochSeconds() + REMOVED_MEMBER_NOTICE_SECONDS,
  };
}

/**
 * A sign-in by an address that has no account now: the removed member's refusal when the address was
 * removed from a company that still exists and the password is the one they had there; otherwise
 * false, and the caller answers "Invalid email or password" as for any unknown address. Exactly one
 * password check either way, so timing tells nothing.
 */
export async function removedMemberSignIn(
  email: string,
  passwords: { verify: (passwordHash: string) => Promise<boolean>; burn: () => Promise<void> },
): Promise<AppError | false> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.removedMember(email) }));
  const user = Item ? await getUser(Item.companyId, Item.userId) : undefined;
  if (!user?.removedAt) {
    await passwords.burn();
    return false;
  }
  if (!(await passwords.verify(user.passwordHash))) return false;
  const company = await getCompany(user.companyId);
  return company ? accessRemoved(company.name) : false;
}

/** A refresh refused for a session of a removed member: their refusal, else undefined (any other ending). */
export async function removalOf(companyId: string, userId: string): Promise<AppError | undefined> {
  const user = await getUser(companyId, userId);
  if (!user?.removedAt) return undefined;
  const company = await getCompany(companyId);
  return company ? accessRemoved(company.name) : undefined;
}
