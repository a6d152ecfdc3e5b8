import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { type CompanyDeletion, confirmsCompanyName } from '../../shared/contract/company';
import { platformStatsItem } from '../admin/platform-stats';
import type { CompanyRecord, UserRecord } from '../auth/accounts';
import { badRequest, notFound } from '../lib/app-error';
import { tableName } from '../lib/config';
import { db } from '../lib/db';
import { queryPrefix } from '../lib/query';
import { keys } from '../lib/table';
import { closeSocket } from '../realtime/delivery';
import type { ChannelRecord, ProviderRecord } from '../settings/records';
import { enqueueCompanyDeletion } from './deletion-queue';

/** A company being deleted: every route treats it as gone; the background worker removes what is left. */
export type StoredCompany = CompanyRecord & { status?: 'DELETING'; deletionRequestedAt?: string; userCount?: number };

const companyNotFound = () => notFound('Company not found');

/**
 * Starts deleting a company (docs/product.md: Deleting a company). What makes it
 * gone for everyone happens here, before the answer: the company leaves the admin list, its users'
 * sessions end (their access tokens are refused at the next request, functions/auth/live-session.ts),
 * their addresses are freed (so nobody signs in, and they may sign up again), its webhook ids and
 * numbers no longer lead to it, its invitation links and open sockets end. The rest — Twilio numbers
 * put back as on disconnect, then every item that names the company — goes on in the background
 * (functions/handlers/jobs/company-deletion.ts). Asking again while it runs answers the same.
 */
export async function startCompanyDeletion(companyId: string, confirm: string): Promise<CompanyDeletion> {
  const TableName = tableName();
  const { Item } = await db.send(new GetCommand({ TableName, Key: keys.company(companyId), ConsistentRead: true }));
  const company = Item as StoredCompany | undefined;
  if (!company) throw companyNotFound();
  if (!confirmsCompanyName(confirm, company.name)) {
    throw badRequest('The name typed is not the company’s name: nothing was deleted.', {
      fields: { confirm: `Type ${company.name} to confirm` },
    });
  }
  if (company.status !== 'DELETING') await markDeleting(company);
  await cutEntryPoints(companyId);
  await enqueueCompanyDeletion({ companyId });
  return { companyId, status: 'DELETING' };
}

/** Marks the company DELETING, off the admin list, and takes it off the platform totals: once. */
async function markDeleting(company: StoredCompany) {
  const TableName = tableName();
  const users = (await queryPrefix<UserRecord>(keys.usersOf(company.id))).filter((u) => !u.removedAt);
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName,
              Key: keys.company(company.id),
              UpdateExpression: 'SET #status = :deleting, deletionRequestedAt = :now REMOVE GSI1PK, GSI1SK',
              ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#status)',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':deleting': 'DELETING', ':now': new Date().toISOString() },
            },
          },
          platformStatsItem({
            companies: -1,
            users: -users.length,
            verifiedUsers: -users.filter((u) => u.emailVerified).length,
          }),
        ],
      }),
    );
  } catch (error) {
    // A parallel request marked it first: the totals were taken off once.
    if (!(error instanceof ConditionalCheckFailedException) && (error as Error).name !== 'TransactionCanceledException') {
      throw error;
    }
  }
}

/**
 * Everything through which the company could still be reached, all found by Query from its own
 * partition. Idempotent: a retry deletes what is already deleted.
 */
async function cutEntryPoints(companyId: string) {
  const TableName = tableName();
  const [users, sessions, providers, channels, invitations, connections] = await Promise.all([
    queryPrefix<UserRecord>(keys.usersOf(companyId)),
    queryPrefix<{ familyId: string }>({ PK: keys.company(companyId).PK, SKPrefix: 'USERSESSION#' }),
    queryPrefix<ProviderRecord>(keys.providersOf(companyId)),
    queryPrefix<ChannelRecord>(keys.channelsOf(companyId)),
    queryPrefix<{ tokenHash?: string }>(keys.invitationsOf(companyId)),
    queryPrefix<{ connectionId: string }>(keys.connectionsOf(companyId)),
  ]);
  const owned = { ConditionExpression: 'companyId = :companyId', ExpressionAttributeValues: { ':companyId': companyId } };
  const deletions = [
    // Sessions: without its family an access token is refused at once, a refresh token too.
    ...sessions.map((s) => ({ Key: keys.refreshFamily(s.familyId) })),
    // Addresses: only while they still lead here (one may already belong to a new sign-up).
    ...users.map((u) => ({ Key: keys.email(u.email), ...owned })),
    ...users.filter((u) => u.verificationHash).map((u) => ({ Key: keys.verification(u.verificationHash as string) })),
    ...providers.map((p) => ({ Key: keys.webhook(p.webhookId), ...owned })),
    ...channels.filter((c) => c.type === 'PHONE').map((c) => ({ Key: keys.number(c.identifier), ...owned })),
    ...invitations.filter((i) => i.tokenHash).map((i) => ({ Key: keys.invitationToken(i.tokenHash as string) })),
  ];
  await Promise.all(
    deletions.map((d) =>
      db.send(new DeleteCommand({ TableName, ...d })).catch((error: unknown) => {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }),
    ),
  );
  await Promise.all(connections.map((c) => closeSocket(c.connectionId)));
}

/** Whether the company is being deleted (or is gone): the worker stops for a company that was not. */
export async function isBeingDeleted(companyId: string): Promise<boolean> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.company(companyId), ConsistentRead: true }));
  return !Item || (Item as StoredCompany).status === 'DELETING';
}
