import { describe, expect, it, vi } from 'vitest';
import { keys } from '../../functions/lib/table';
import { callRoute, signUp, uniqueEmail } from '../support/api';
import { endpoints } from '../support/endpoints';
import { holdItem } from '../support/table';

/**
 * Writes that meet on one item at the same moment, as DynamoDB cancels them in AWS (the local
 * endpoint applies its conflict rules): the table client tries them again (functions/lib/db.ts), so
 * the people making them never hear of it. Another writer holds the owner's item until one of them
 * has met it: whether they meet each other depends on the machine's load.
 */
describe('parallel writes on one item', () => {
  it('10 invitations sent at once by one owner are all answered 201 and all listed, though their transactions conflicted', async () => {
    const owner = await signUp({ companyName: 'Busy Inviters', name: 'Ola Owner' });
    const emails = Array.from({ length: 10 }, () => uniqueEmail('parallel'));
    const hold = await holdItem(keys.user(owner.company.id, owner.user.id));

    // Each checks, in its transaction, that the owner may still invite: all ten hold the owner's item.
    const answering = Promise.all(
      emails.map((email) =>
        callRoute(endpoints.createInvitation, { token: owner.tokens.accessToken, body: { email, role: 'AGENT' } }),
      ),
    );
    await vi.waitFor(async () => expect(await hold.turnedAway()).toBeGreaterThan(0), { timeout: 30_000, interval: 20 });
    await hold.release();
    const answers = await answering;

    expect(answers.map((a) => [a.status, a.body])).toEqual(
      emails.map((email) => [201, expect.objectContaining({ data: { invitation: expect.objectContaining({ email }) } })]),
    );
    const listed = await callRoute(endpoints.listInvitations, { token: owner.tokens.accessToken });
    expect(listed.body.data.invitations.map((i) => i.email).sort()).toEqual([...emails].sort());
  });
});
