import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { VERIFICATION_TOKEN_TTL_SECONDS } from '../../shared/constants';
import { platformStatsItem } from '../admin/platform-stats';
import { AppError } from '../lib/app-error';
import { setting, tableName } from '../lib/config';
import { db } from '../lib/db';
import { escapeHtml, sendMail } from '../lib/mail';
import { epochSeconds, keys } from '../lib/table';
import { transact } from '../lib/transact';
import type { UserRecord } from './accounts';
import { hashOpaqueToken, newOpaqueToken } from './opaque-tokens';

/** Expired tokens are kept a week longer, so a late click can still be told "expired, resend". */
const KEEP_EXPIRED_SECONDS = 7 * 24 * 60 * 60;

export function newVerification() {
  const { token, hash } = newOpaqueToken();
  const validUntil = epochSeconds() + VERIFICATION_TOKEN_TTL_SECONDS;
  return { token, hash, validUntil, expiresAt: validUntil + KEEP_EXPIRED_SECONDS };
}

/**
 * A resend: the new token replaces the user's previous one (deleted), so only the latest link works.
 * False when the account was verified meanwhile (no mail is due then).
 */
export async function replaceVerification(user: UserRecord, verification: ReturnType<typeof newVerification>): Promise<boolean> {
  const TableName = tableName();
  const result = await transact([
    {
      Update: {
        TableName,
        Key: keys.user(user.companyId, user.id),
        UpdateExpression: 'SET verificationHash = :hash',
        ConditionExpression: 'emailVerified = :false',
        ExpressionAttributeValues: { ':hash': verification.hash, ':false': false },
      },
    },
    ...(user.verificationHash ? [{ Delete: { TableName, Key: keys.verification(user.verificationHash) } }] : []),
    {
      Put: {
        TableName,
        Item: {
          ...keys.verification(verification.hash),
          entity: 'VERIFICATION',
          companyId: user.companyId,
          userId: user.id,
          validUntil: verification.validUntil,
          expiresAt: verification.expiresAt,
        },
      },
    },
  ]);
  return result.written;
}

const appUrl = async () => (await setting('APP_URL')).replace(/\/$/, '');

/**
 * The mail greets without the name typed at registration: anyone can register any address, so nothing
 * a stranger wrote may appear in a mail from us (it could read as our instructions).
 */
export async function sendVerificationMail(email: string, token: string): Promise<void> {
  // The token in the fragment: browsers never send it, so no CloudFront log holds it.
  const link = `${await appUrl()}/verify-email#token=${encodeURIComponent(token)}`;
  const hours = VERIFICATION_TOKEN_TTL_SECONDS / 3600;
  await sendMail({
    to: email,
    subject: 'Verify your email for Switchboard',
    text: `Hello,\n\nConfirm your email address to finish setting up Switchboard:\n${link}\n\nThe link works once and expires in ${hours} hours. If you did not sign up, ignore this mail.\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111827;line-height:1.5">
<p>Hello,</p>
<p>Confirm your email address to finish setting up Switchboard.</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#fff;border-radius:6px;text-decoration:none">Verify email</a></p>
<p style="color:#6b7280;font-size:13px">Or open this link: ${escapeHtml(link)}<br>It works once and expires in ${hours} hours. If you did not sign up, ignore this mail.</p>
</body></html>`,
  });
}

/** Sent instead of a verification link when the address already has an account (registration never says so). */
export async function sendAccountExistsMail(email: string): Promise<void> {
  const link = `${await appUrl()}/login`;
  const note = 'Someone tried to create a Switchboard account with this email address, but it already has one.';
  const after = 'If that was you, sign in instead. If not, you can ignore this mail: nothing has changed.';
  await sendMail({
    to: email,
    subject: 'You already have a Switchboard account',
    text: `Hello,\n\n${note}\n${after}\n\nSign in: ${link}\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111827;line-height:1.5">
<p>Hello,</p>
<p>${note}<br>${after}</p>
<p><a href="${escapeHtml(link)}">Sign in to Switchboard</a></p>
</body></html>`,
  });
}

const invalidLink = () =>
  new AppError(400, 'INVALID_TOKEN', 'This verification link is invalid or has already been used.', { canResend: false });

/**
 * Spends a verification token: the token item is deleted and the user marked verified in one
 * transaction, so a token works once even when clicked twice at the same moment. Only the user's
 * latest token counts, and only while the user is unverified: a verification link is never a login
 * link for a verified account.
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
          platformStatsItem({ verifiedUsers: 1 }),
          {
            Update: {
              TableName,
              Key: keys.user(Item.companyId, Item.userId),
              UpdateExpression: 'SET emailVerified = :true REMOVE verificationHash',
              ConditionExpression: 'emailVerified = :false AND verificationHash = :hash',
              ExpressionAttributeValues: { ':true': true, ':false': false, ':hash': hash },
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException) {
      // A stale token (replaced, or of a verified account) is of no use to anyone: drop it.
      await db.send(new DeleteCommand({ TableName, Key: keys.verification(hash) }));
      throw invalidLink();
    }
    throw error;
  }
  return { companyId: Item.companyId, userId: Item.userId };
}
