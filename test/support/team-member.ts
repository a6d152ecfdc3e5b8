import { randomUUID } from 'node:crypto';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { hashPassword } from '../../functions/auth/passwords';
import { keys } from '../../functions/lib/table';
import type { Company, Role, Tokens, User } from '../../shared/contract/auth';
import { type Account, api, newClientAddress, uniqueEmail } from './api';
import { testTable } from './table';

/**
 * A verified member of the owner's company with the given role, written straight into the table
 * (until invitations exist), then signed in through the API as that person would.
 */
export async function addTeamMember(owner: Account, options: { role: Role; name?: string }): Promise<Account> {
  const email = uniqueEmail(options.role.toLowerCase());
  const password = 'member password 1';
  const userId = randomUUID();
  const companyId = owner.company.id;
  const { client, tableName } = testTable();
  await client.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName, Item: { ...keys.email(email), entity: 'EMAIL', companyId, userId } } },
        {
          Put: {
            TableName: tableName,
            Item: {
              ...keys.user(companyId, userId),
              entity: 'USER',
              id: userId,
              companyId,
              name: options.name ?? 'Agnes Agent',
              email,
              emailVerified: true,
              role: options.role,
              avatarUrl: null,
              lastActiveAt: null,
              passwordHash: await hashPassword(password),
              createdAt: new Date().toISOString(),
            },
          },
        },
      ],
    }),
  );
  const res = await api<{ user: User; company: Company; tokens: Tokens }>('/api/v1/auth/login', {
    body: { email, password },
    address: newClientAddress(),
  });
  if (res.status !== 200) throw new Error(`member sign-in failed: ${JSON.stringify(res.body)}`);
  return { email, password, ...res.body.data };
}
