import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { VERIFICATION_TOKEN_TTL_SECONDS } from '../../shared/constants';
import { AppError } from '../lib/app-error';
import { setting, tableName } from '../lib/config';
import { db } from '../lib/db';
import { escapeHtml, sendMail } from '../lib/mail';
import { epochSeconds, keys } from '../lib/table';
import type { UserRecord } from './accounts';
import { hashOpaqueToken, newOpaqueToken } from './opaque-tokens';

/** Expired tokens are kept a week longer, so a late click can still be told "expired, resend". */
const KEEP_EXPIRED_SECONDS = 7 * 24 * 60 * 60;

export function newVerification() {
  const { token, hash } = newOpaqueToken();
  const validUntil = epochSeconds() + VERIFICATION_TOKEN_TTL_SECONDS;
  return { token, hash, validUntil, expiresAt: validUntil + KEEP_EXPIRED_SECONDS };
}

export async function storeVerification(user: UserRecord, verification: ReturnType<typeof newVerification>): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.verification(verification.hash),
        entity: 'VERIFICATION',
        companyId: user.companyId,
        userId: user.id,
        validUntil: verification.validUntil,
        expiresAt: verification.expiresAt,
      },
    }),
  );
}

export async function sendVerificationMail(user: Pick<UserRecord, 'name' | 'email'>, token: string): Promise<void> {
  const link = `${(await setting('APP_URL')).replace(/\/$/, '')}/verify-email?token=${encodeURIComponent(token)}`;
  const hours = VERIFICATION_TOKEN_TTL_SECONDS / 3600;
  const name = escapeHtml(user.name);
  await sendMail({
    to: user.email,
    subject: 'Verify your email for Switchboard',
    text: `Hi ${user.name},\n\nConfirm your email address to finish setting up Switchboard:\n${link}\n\nThe link works once and expires in ${hours} hours. If you did not sign up, ignore this mail.\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111827;line-height:1.5">
<p>Hi ${name},</p>
<p>Confirm your email address to finish setting up Switchboard.</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#fff;border-radius:6px;text-decoration:none">Verify email</a></p>
<p style="color:#6b7280;font-size:13px">Or open this link: ${escapeHtml(link)}<br>It works once and expires in ${hours} hours. If you did not sign up, ignore this mail.</p>
</body></html>`,
  });
}

const invalidLink = () =>
  new AppError(400, 'INVALID_TOKEN', 'This verification link is invalid or has already been used.', { canResend: false });

/**
 * Spends a verification token: the token item is deleted and the user marked verified in one
 * transaction, so a token works once even when clicked twice at the same moment.
 */
export async function consumeVerification(token: string): Promise<{ companyId: string; userId: string }> {
  const hash = hashOpaqueToken(token);
  const TableName = tableName();
  const { Item } = await db.send(new GetCommand({ TableName, Key: keys.verification(hash), ConsistentRead: true }));
  if (!Item) throw invalidLink();
  if (Number(Item.validUntil) < epochSeconds()) {
    throw new AppError(400, 'INVALID_TOKEN', 'This verification link has expired.', { canResend: true });
  }
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName, Key: keys.verification(hash), ConditionExpression: 'attribute_exists(PK)' } },
          {
            Update: {
              TableName,
              Key: keys.user(Item.companyId, Item.userId),
              UpdateExpression: 'SET emailVerified = :true',
              ConditionExpression: 'attribute_exists(PK)',
              ExpressionAttributeValues: { ':true': true },
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException) throw invalidLink();
    throw error;
  }
  return { companyId: Item.companyId, userId: Item.userId };
}
