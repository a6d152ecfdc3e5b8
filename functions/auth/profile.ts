import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { AppError, conflict, unauthorized } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { keys } from '../lib/table';
import type { Principal } from './access-tokens';
import { type CompanyRecord, getActiveUser, type UserRecord } from './accounts';

const accountGone = () => unauthorized('This account no longer exists.');

/** The signed-in person's own name: what the team, assignments and notes show from now on. */
export async function renameUser(principal: Pick<Principal, 'companyId' | 'userId'>, name: string): Promise<UserRecord> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(principal.companyId, principal.userId),
        UpdateExpression: 'SET #name = :name',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(removedAt)',
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: { ':name': name },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as UserRecord;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw accountGone();
    throw error;
  }
}

/** 400 on the field, not 401: a 401 would make the app refresh and sign the person out. */
export const wrongCurrentPassword = () =>
  new AppError(400, 'VALIDATION_FAILED', 'Current password is incorrect', {
    fields: { currentPassword: 'Current password is incorrect' },
  });

/** The stored user whose password is being changed. */
export async function passwordOwner(principal: Pick<Principal, 'companyId' | 'userId'>): Promise<UserRecord> {
  const user = await getActiveUser(principal.companyId, principal.userId);
  if (!user) throw accountGone();
  return user;
}

/**
 * Sets the new password, only over the one that was checked: two changes at the same moment cannot
 * both win. A reset link mailed earlier stops working.
 */
export async function setPassword(user: UserRecord, passwordHash: string): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(user.companyId, user.id),
        UpdateExpression: 'SET passwordHash = :new REMOVE passwordResetHash',
        ConditionExpression: 'attribute_not_exists(removedAt) AND passwordHash = :old',
        ExpressionAttributeValues: { ':new': passwordHash, ':old': user.passwordHash },
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) {
      throw conflict('Your password was changed at the same moment elsewhere. Please try again.');
    }
    throw error;
  }
}

/** The company's name, as the app, invitations and the removed-member message show it. */
export async function renameCompany(companyId: string, name: string): Promise<CompanyRecord> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.company(companyId),
        UpdateExpression: 'SET #name = :name',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#name': 'name' },
        ExpressionAttributeValues: { ':name': name },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as CompanyRecord;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw accountGone();
    throw error;
  }
}
