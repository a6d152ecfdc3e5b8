import { platformStatsItem } from '../admin/platform-stats';
import { tableName } from '../lib/config';
import { keys } from '../lib/table';
import { transact } from '../lib/transact';
import type { CompanyRecord, UserRecord } from './accounts';
import { readAddress } from './addresses';
import { newId } from './opaque-tokens';
import { burnPasswordCheck, hashPassword } from './passwords';
import { newVerification } from './verification';

export interface RegistrationInput {
  companyName: string;
  name: string;
  email: string;
  password: string;
}

export type Registration =
  | { kind: 'created'; user: UserRecord; company: CompanyRecord; verificationToken: string }
  /** The address already has a verified account: nothing changes, its owner is told by mail. */
  | { kind: 'taken' };

/**
 * Registration never fails on an address someone registered without verifying it: that account (a
 * stranger's password, perhaps) is replaced by a new one, and its verification link dies with it. Only
 * a verified account keeps its address. The company, its OWNER, the e-mail uniqueness item and the
 * verification token are written in one transaction, conditioned on what was read, so a half-made
 * account never exists and two registrations at once cannot both win.
 */
export async function registerAccount(input: RegistrationInput): Promise<Registration> {
  const TableName = tableName();
  let passwordHash: string | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    const address = await readAddress(input.email);
    if (address.taken) {
      // As long as a real registration takes, so the answer's timing does not tell the two apart.
      await burnPasswordCheck(input.password);
      return { kind: 'taken' };
    }
    passwordHash ??= await hashPassword(input.password);

    const now = new Date().toISOString();
    const companyId = newId();
    const userId = newId();
    const verification = newVerification();
    const company: CompanyRecord = { id: companyId, name: input.companyName, ownerId: userId, createdAt: now };
    const user: UserRecord = {
      id: userId,
      companyId,
      name: input.name,
      email: input.email,
      emailVerified: false,
      role: 'OWNER',
      avatarUrl: null,
      lastActiveAt: null,
      passwordHash,
      createdAt: now,
      verificationHash: verification.hash,
    };
    const result = await transact([
      ...address.items({ companyId, userId }),
      // A replaced unverified account takes its company and user with it: the totals stay.
      ...(address.replacesAccount ? [] : [platformStatsItem({ companies: 1, users: 1 })]),
      {
        Put: {
          TableName,
          Item: {
            ...keys.company(companyId),
            ...keys.companyListing(now, companyId),
            entity: 'COMPANY',
            ...company,
            userCount: 1,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      { Put: { TableName, Item: { ...keys.user(companyId, userId), entity: 'USER', ...user } } },
      {
        Put: {
          TableName,
          Item: {
            ...keys.verification(verification.hash),
            entity: 'VERIFICATION',
            companyId,
            userId,
            validUntil: verification.validUntil,
            expiresAt: verification.expiresAt,
          },
        },
      },
    ]);
    if (result.written) return { kind: 'created', user, company, verificationToken: verification.token };
    // Else another registration or a verification of this address got there first: read it again.
  }
  throw new Error('registration kept conflicting with concurrent registrations of the same address');
}
