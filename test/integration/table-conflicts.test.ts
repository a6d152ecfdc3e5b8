import { describe, expect, it } from 'vitest';
import type { Invitation } from '../../shared/contract/team';
import { api, signUp, stack, uniqueEmail } from '../support/api';

interface TableStats {
  transactionConflicts: number;
  requests: Record<string, number>;
}

/** What the local table endpoint met since the stack started (local/dynamodb-proxy.ts). */
const tableStats = async (): Promise<TableStats> => (await fetch(`${stack().urls.dynamodb}/_local/stats`)).json();

/**
 * Writes that meet on one item at the same moment, as DynamoDB cancels them in AWS (the local
 * endpoint applies its conflict rules): the table client tries them again (functions/lib/db.ts), so
 * the people making them never hear of it.
 */
describe('parallel writes on one item', () => {
  it('10 invitations sent at once by one owner are all answered 201 and all listed, though their transactions conflicted', async () => {
    const owner = await signUp({ companyName: 'Busy Inviters', name: 'Ola Owner' });
    const emails = Array.from({ length: 10 }, () => uniqueEmail('parallel'));
    const before = await tableStats();

    // Each checks, in its transaction, that the owner may still invite: all ten hold the owner's item.
    const answers = await Promise.all(
      emails.map((email) =>
        api<{ invitation: Invitation }>('/api/v1/invitations', {
          token: owner.tokens.accessToken,
          body: { email, role: 'AGENT' },
        }),
      ),
    );

    expect(answers.map((a) => [a.status, a.body])).toEqual(
      emails.map((email) => [201, expect.objectContaining({ data: { invitation: expect.objectContaining({ email }) } })]),
    );
    const listed = await api<{ invitations: Invitation[] }>('/api/v1/invitations', { token: owner.tokens.accessToken });
    expect(listed.body.data.invitations.map((i) => i.email).sort()).toEqual([...emails].sort());
    const after = await tableStats();
    expect(after.transactionConflicts).toBeGreaterThan(before.transactionConflicts);
  });
});
