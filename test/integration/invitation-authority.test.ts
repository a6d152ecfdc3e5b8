import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../functions/lib/table';
import { type Account, callRoute, mailTo, signUp, uniqueEmail } from '../support/api';
import { endpoints } from '../support/endpoints';
import { testTable } from '../support/table';
import { addTeamMember, invite, latestInvitationToken } from '../support/team';

/**
 * An invitation is worth only what its sender may still grant, and only the OWNER grants
 * or takes away ADMIN.
 */

let owner: Account;

beforeAll(async () => {
  owner = await signUp({ companyName: 'Authority Co', name: 'Olivia Owner' });
});

const accept = (token: string) =>
  callRoute(endpoints.acceptInvitation, { body: { token, name: 'Late Joiner', password: 'a good password' } });

const pendingEmails = async () =>
  (await callRoute(endpoints.listInvitations, { token: owner.tokens.accessToken })).body.data.invitations.map((i) => i.email);

const teamEmails = async () =>
  (await callRoute(endpoints.listUsers, { token: owner.tokens.accessToken })).body.data.users.map((u) => u.email);

const withdrawn = 'This invitation link is invalid or has been withdrawn. Ask for a new invitation.';

describe('an invitation dies with its sender’s right to send it', () => {
  it('removing the inviter withdraws their pending invitations; the owner’s stay', async () => {
    const admin = await addTeamMember(owner, { role: 'ADMIN' });
    const theirs = uniqueEmail('by-removed-admin');
    const ownersOwn = uniqueEmail('by-owner');
    await invite(admin, theirs, 'AGENT');
    await invite(owner, ownersOwn, 'AGENT');
    const token = await latestInvitationToken(theirs);

    const removed = await callRoute(endpoints.removeUser, { params: { id: admin.user.id }, token: owner.tokens.accessToken });
    expect(removed.status).toBe(200);

    expect(await pendingEmails()).not.toContain(theirs);
    expect(await pendingEmails()).toContain(ownersOwn);
    const res = await accept(token);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_TOKEN', message: withdrawn });
    expect(await teamEmails()).not.toContain(theirs);
    expect((await accept(await latestInvitationToken(ownersOwn))).status).toBe(201);
  });

  it('demoting an ADMIN to AGENT withdraws the invitations they sent', async () => {
    const admin = await addTeamMember(owner, { role: 'ADMIN' });
    const email = uniqueEmail('by-demoted-admin');
    await invite(admin, email, 'AGENT');
    const demoted = await callRoute(endpoints.updateUserRole, {
      params: { id: admin.user.id },
      token: owner.tokens.accessToken,
      body: { role: 'AGENT' },
    });
    expect(demoted.status).toBe(200);
    expect(await pendingEmails()).not.toContain(email);
    const res = await accept(await latestInvitationToken(email));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(withdrawn);
    expect(await teamEmails()).not.toContain(email);
  });

  it('accepting checks again that the inviter is still here and may still grant that role', async () => {
    // Invitations sent before this rule existed: an ADMIN's invitation as ADMIN, and one of an
    // inviter whose removal did not get to withdraw it.
    const admin = await addTeamMember(owner, { role: 'ADMIN' });
    const asAdmin = uniqueEmail('admin-made-admin');
    const invitation = await invite(admin, asAdmin, 'AGENT');
    const { client, tableName } = testTable();
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.invitation(owner.company.id, invitation.id),
        UpdateExpression: 'SET #role = :admin',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':admin': 'ADMIN' },
      }),
    );
    const refused = await accept(await latestInvitationToken(asAdmin));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'INVALID_TOKEN', message: withdrawn });

    const other = await addTeamMember(owner, { role: 'ADMIN' });
    const orphan = uniqueEmail('orphaned');
    await invite(other, orphan, 'AGENT');
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.user(owner.company.id, other.user.id),
        UpdateExpression: 'SET removedAt = :now',
        ExpressionAttributeValues: { ':now': new Date().toISOString() },
      }),
    );
    const late = await accept(await latestInvitationToken(orphan));
    expect(late.status).toBe(400);
    expect(late.body.error.message).toBe(withdrawn);
    expect(await teamEmails()).not.toEqual(expect.arrayContaining([asAdmin]));
    expect(await teamEmails()).not.toContain(orphan);
  });
});

describe('only the OWNER grants or takes away ADMIN', () => {
  it('refuses an ADMIN inviting an admin, and sends nothing', async () => {
    const admin = await addTeamMember(owner, { role: 'ADMIN' });
    const email = uniqueEmail('would-be-admin');
    const res = await callRoute(endpoints.createInvitation, { token: admin.tokens.accessToken, body: { email, role: 'ADMIN' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual({ code: 'FORBIDDEN', message: 'Only the owner can invite an admin.' });
    expect(await mailTo(email)).toEqual([]);
    expect(await pendingEmails()).not.toContain(email);
  });

  it('refuses an ADMIN removing another ADMIN, and the removal-then-reinvite detour', async () => {
    const admin = await addTeamMember(owner, { role: 'ADMIN' });
    const otherAdmin = await addTeamMember(owner, { role: 'ADMIN' });
    const agent = await addTeamMember(owner, { role: 'AGENT' });

    const res = await callRoute(endpoints.removeUser, { params: { id: otherAdmin.user.id }, token: admin.tokens.accessToken });
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual({ code: 'FORBIDDEN', message: 'Only the owner can remove an admin.' });
    expect(await teamEmails()).toContain(otherAdmin.email);
    expect((await callRoute(endpoints.login, { body: { email: otherAdmin.email, password: otherAdmin.password } })).status).toBe(
      200,
    );

    // ADMINs keep managing AGENTs: the agent goes, but comes back as an agent only.
    expect(
      (await callRoute(endpoints.removeUser, { params: { id: agent.user.id }, token: admin.tokens.accessToken })).status,
    ).toBe(200);
    const reinvite = await callRoute(endpoints.createInvitation, {
      token: admin.tokens.accessToken,
      body: { email: agent.email, role: 'ADMIN' },
    });
    expect(reinvite.status).toBe(403);
    expect((await invite(admin, agent.email, 'AGENT')).role).toBe('AGENT');
  });
});
