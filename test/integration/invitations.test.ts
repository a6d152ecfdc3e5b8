import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashOpaqueToken } from '../../functions/auth/opaque-tokens';
import { keys } from '../../functions/lib/table';
import { type Account, api, callRoute, mailTo, newClientAddress, signUp, stack, unchecked, uniqueEmail } from '../support/api';
import { endpoints } from '../support/endpoints';
import { openSocket } from '../support/realtime';
import { testTable } from '../support/table';
import { addTeamMember, invite, latestInvitationToken } from '../support/team';

let owner: Account;

beforeAll(async () => {
  owner = await signUp({ companyName: 'Invite Co', name: 'Olivia Owner' });
});

const accept = (token: string, overrides: Partial<{ name: string; password: string }> = {}) =>
  callRoute(endpoints.acceptInvitation, {
    body: { token, name: overrides.name ?? 'New Colleague', password: overrides.password ?? 'a good password' },
  });

// A POST, so the token travels in the body, never in a URL that CloudFront or a browser keeps.
const preview = (token: string) => callRoute(endpoints.previewInvitation, { body: { token } });

describe('inviting a colleague', () => {
  it('mails a link that shows who invites to which company, and signs the colleague in with the invited role', async () => {
    const email = uniqueEmail('agent');
    const created = await callRoute(endpoints.createInvitation, {
      token: owner.tokens.accessToken,
      body: { email: email.toUpperCase(), role: 'AGENT' },
    });
    expect(created.status).toBe(201);
    const { invitation } = created.body.data;
    expect(invitation).toMatchObject({
      email,
      role: 'AGENT',
      invitedBy: { id: owner.user.id, name: 'Olivia Owner' },
      expired: false,
    });
    const days = (Date.parse(invitation.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);

    const [mail] = await mailTo(email);
    expect(mail?.subject).toBe('Olivia Owner invited you to Invite Co on Switchboard');
    expect(mail?.text).toContain('"Olivia Owner" invited you to join "Invite Co" on Switchboard as an agent.');
    expect(mail?.html).toContain('<strong>Olivia Owner</strong> invited you to join <strong>Invite Co</strong>');
    // The token rides in the fragment, which browsers never send: no server or CDN log holds it.
    expect(mail?.text).toContain(`${stack().env.APP_URL}/accept-invite#token=`);
    expect(mail?.html).not.toMatch(/accept-invite\?/);
    const token = await latestInvitationToken(email);

    const shown = await preview(token);
    expect(shown.status).toBe(200);
    expect(shown.body.data.invitation).toMatchObject({
      companyName: 'Invite Co',
      email,
      role: 'AGENT',
      invitedBy: { name: 'Olivia Owner' },
    });

    const joined = await accept(token, { name: 'Grace Hopper' });
    expect(joined.status).toBe(201);
    expect(joined.body.data.user).toMatchObject({
      name: 'Grace Hopper',
      email,
      role: 'AGENT',
      emailVerified: true,
      companyId: owner.company.id,
    });
    expect(joined.body.data.company).toEqual(owner.company);

    // Both see each other on the Team page; the invitation is no longer pending.
    for (const account of [owner.tokens.accessToken, joined.body.data.tokens.accessToken]) {
      const team = await callRoute(endpoints.listUsers, { token: account });
      expect(team.body.data.users.map((u) => u.email)).toEqual(expect.arrayContaining([owner.email, email]));
    }
    const pending = await callRoute(endpoints.listInvitations, { token: owner.tokens.accessToken });
    expect(pending.body.data.invitations.map((i) => i.email)).not.toContain(email);

    // The new password signs in; the link does not work twice.
    const login = await callRoute(endpoints.login, { body: { email, password: 'a good password' } });
    expect(login.status).toBe(200);
    const again = await accept(token);
    expect(again.status).toBe(400);
    expect(again.body.error.details).toEqual({ used: true });
    expect((await preview(token)).body.error.message).toBe(
      'This invitation has already been accepted. Sign in with your email and password.',
    );
  });

  it('lets an ADMIN invite, and refuses an AGENT with a clear message', async () => {
    const admin = await addTeamMember(owner, { role: 'ADMIN' });
    expect((await invite(admin, uniqueEmail('by-admin'))).invitedBy.id).toBe(admin.user.id);

    const agent = await addTeamMember(owner, { role: 'AGENT' });
    const email = uniqueEmail('by-agent');
    const refused = await callRoute(endpoints.createInvitation, {
      token: agent.tokens.accessToken,
      body: { email, role: 'AGENT' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', message: 'Only the owner and admins can do this.' });
    expect(await mailTo(email)).toEqual([]);
    // Reading the pending invitations stays open to every member.
    expect((await callRoute(endpoints.listInvitations, { token: agent.tokens.accessToken })).status).toBe(200);
  });

  it('answers an address that already has an account like any other; the link tells its holder to sign in', async () => {
    const elsewhere = await signUp({ companyName: 'Other Co' });
    const fresh = uniqueEmail('fresh');
    const answers = [];
    for (const email of [elsewhere.email, fresh]) {
      const res = await callRoute(endpoints.createInvitation, {
        token: owner.tokens.accessToken,
        body: { email, role: 'AGENT' },
      });
      answers.push({ status: res.status, message: res.body.message?.replace(email, '<address>') });
    }
    // Nothing tells the inviting company which of the two addresses has an account.
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toEqual({ status: 201, message: 'Invitation sent to <address>.' });

    const token = await latestInvitationToken(elsewhere.email);
    const taken = 'This email address already has a Switchboard account. Sign in instead.';
    for (const res of [await preview(token), await accept(token)]) {
      expect(res.status).toBe(409);
      expect(res.body.error).toEqual({ code: 'EMAIL_TAKEN', message: taken });
    }
    // The account and its company are untouched.
    const login = await callRoute(endpoints.login, { body: { email: elsewhere.email, password: elsewhere.password } });
    expect(login.body.data.company.id).toBe(elsewhere.company.id);
  });

  it('lets an address a stranger registered but never verified be invited: accepting replaces that account', async () => {
    const email = uniqueEmail('squatted');
    const squat = await callRoute(endpoints.register, {
      body: { companyName: 'Squatter Co', name: 'Stranger', email, password: 'stranger password' },
      address: newClientAddress(),
    });
    expect(squat.status).toBe(201);
    await invite(owner, email, 'AGENT');
    const joined = await accept(await latestInvitationToken(email), { password: 'the real password' });
    expect(joined.status).toBe(201);
    expect(joined.body.data.company.id).toBe(owner.company.id);
    expect((await callRoute(endpoints.login, { body: { email, password: 'stranger password' } })).status).toBe(401);
    expect((await callRoute(endpoints.login, { body: { email, password: 'the real password' } })).status).toBe(200);
  });

  it('validates the address and the role', async () => {
    const bad = await callRoute(endpoints.createInvitation, {
      token: owner.tokens.accessToken,
      body: { email: 'not-an-address', role: unchecked('OWNER') },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details?.fields).toEqual({
      email: 'Enter a valid email address',
      role: 'Choose a role: Admin or Agent',
    });
    // What a form left at "Choose a role..." would send: no role, or an empty one.
    for (const body of [{ email: uniqueEmail('norole') }, { email: uniqueEmail('norole'), role: '' }]) {
      const refused = await callRoute(endpoints.createInvitation, { token: owner.tokens.accessToken, body: unchecked(body) });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details?.fields).toEqual({ role: 'Choose a role: Admin or Agent' });
    }
  });

  it('replaces the pending invitation when the same address is invited again: only the newest link works', async () => {
    const email = uniqueEmail('twice');
    const first = await invite(owner, email, 'AGENT');
    const oldToken = await latestInvitationToken(email);
    const second = await invite(owner, email, 'ADMIN');
    const newToken = await latestInvitationToken(email);
    expect(newToken).not.toBe(oldToken);

    const pending = await callRoute(endpoints.listInvitations, { token: owner.tokens.accessToken });
    const mine = pending.body.data.invitations.filter((i) => i.email === email);
    expect(mine.map((i) => i.id)).toEqual([second.id]);
    expect(first.id).not.toBe(second.id);

    const old = await accept(oldToken);
    expect(old.status).toBe(400);
    expect(old.body.error.message).toBe('This invitation link is invalid or has been withdrawn. Ask for a new invitation.');
    const joined = await accept(newToken);
    expect(joined.status).toBe(201);
    expect(joined.body.data.user.role).toBe('ADMIN');
  });

  it('resends with a new link and voids the old one', async () => {
    const email = uniqueEmail('resend');
    const invitation = await invite(owner, email);
    const oldToken = await latestInvitationToken(email);
    const resent = await callRoute(endpoints.resendInvitation, {
      params: { id: invitation.id },
      token: owner.tokens.accessToken,
    });
    expect(resent.status).toBe(200);
    expect(resent.body.data.invitation.id).toBe(invitation.id);
    expect(await mailTo(email)).toHaveLength(2);
    expect((await preview(oldToken)).status).toBe(400);
    expect((await accept(await latestInvitationToken(email))).status).toBe(201);
  });

  it('revokes: the link stops working and the invitation leaves the list', async () => {
    const email = uniqueEmail('revoked');
    const invitation = await invite(owner, email);
    const token = await latestInvitationToken(email);
    const revoked = await callRoute(endpoints.revokeInvitation, {
      params: { id: invitation.id },
      token: owner.tokens.accessToken,
    });
    expect(revoked.status).toBe(200);
    const res = await accept(token);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_TOKEN');
    expect((await callRoute(endpoints.login, { body: { email, password: 'a good password' } })).status).toBe(401);
    const again = await callRoute(endpoints.revokeInvitation, { params: { id: invitation.id }, token: owner.tokens.accessToken });
    expect(again.status).toBe(404);
  });

  it('tells an expired link apart, and a resend brings it back', async () => {
    const email = uniqueEmail('expired');
    const invitation = await invite(owner, email);
    const token = await latestInvitationToken(email);
    const { client, tableName } = testTable();
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.invitationToken(hashOpaqueToken(token)),
        UpdateExpression: 'SET validUntil = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 60 },
      }),
    );
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.invitation(owner.company.id, invitation.id),
        UpdateExpression: 'SET validUntil = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 60 },
      }),
    );
    const shown = await preview(token);
    expect(shown.status).toBe(400);
    expect(shown.body.error).toMatchObject({
      message: 'This invitation has expired. Ask Olivia Owner to send a new one.',
      details: { expired: true },
    });
    expect((await accept(token)).body.error.details).toEqual({ expired: true });
    const listed = await callRoute(endpoints.listInvitations, { token: owner.tokens.accessToken });
    expect(listed.body.data.invitations.find((i) => i.id === invitation.id)?.expired).toBe(true);

    await callRoute(endpoints.resendInvitation, { params: { id: invitation.id }, token: owner.tokens.accessToken });
    expect((await accept(await latestInvitationToken(email))).status).toBe(201);
  });

  it('makes one user when the link is accepted twice at the same moment', async () => {
    const email = uniqueEmail('parallel');
    await invite(owner, email);
    const token = await latestInvitationToken(email);
    const results = await Promise.all([accept(token, { name: 'First' }), accept(token, { name: 'Second' })]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 400]);
    const team = await callRoute(endpoints.listUsers, { token: owner.tokens.accessToken });
    expect(team.body.data.users.filter((u) => u.email === email)).toHaveLength(1);
  });

  it('no longer opens a link from a URL: the old GET preview answers 405 and names the method to use', async () => {
    const email = uniqueEmail('get-preview');
    await invite(owner, email);
    const token = await latestInvitationToken(email);
    // The route's path asked with GET and the token in the query: a request no endpoint makes.
    const res = await api(`${endpoints.acceptInvitation.path}?token=${token}`);
    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
    expect(res.body.error.message).toMatch(/^Method GET is not allowed for \/api\/v1\/invitations\/accept; use .*POST/);
    expect((await preview(token)).status).toBe(200);
  });

  it('applies the registration password rules and refuses an unknown token', async () => {
    const email = uniqueEmail('short');
    await invite(owner, email);
    const token = await latestInvitationToken(email);
    const short = await accept(token, { password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.error.details?.fields).toEqual({ password: 'Password must be at least 8 characters long' });
    expect((await accept('unknown-token-000000000000')).status).toBe(400);
    expect((await preview(token)).status).toBe(200);
  });

  it('limits how many invitation mails a company sends per hour', async () => {
    const busy = await signUp({ companyName: 'Busy Co' });
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await callRoute(endpoints.createInvitation, {
        token: busy.tokens.accessToken,
        body: { email: uniqueEmail('bulk'), role: 'AGENT' },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 201)).toBe(true);
    expect(statuses[30]).toBe(429);
    // Another company is not affected.
    expect(
      (
        await callRoute(endpoints.createInvitation, {
          token: owner.tokens.accessToken,
          body: { email: uniqueEmail(), role: 'AGENT' },
        })
      ).status,
    ).toBe(201);
  });

  it("answers another company's user 404 for an invitation by id, and changes nothing", async () => {
    const stranger = await signUp({ companyName: 'Stranger Co' });
    const email = uniqueEmail('guarded');
    const invitation = await invite(owner, email);
    const token = await latestInvitationToken(email);
    const revoke = await callRoute(endpoints.revokeInvitation, {
      params: { id: invitation.id },
      token: stranger.tokens.accessToken,
    });
    const resend = await callRoute(endpoints.resendInvitation, {
      params: { id: invitation.id },
      token: stranger.tokens.accessToken,
    });
    expect([revoke.status, resend.status]).toEqual([404, 404]);
    expect(await mailTo(email)).toHaveLength(1);
    const theirs = await callRoute(endpoints.listInvitations, { token: stranger.tokens.accessToken });
    expect(theirs.body.data.invitations).toEqual([]);
    expect((await preview(token)).status).toBe(200);
  });
});

describe('an accepted invitation', () => {
  it('is an event to the company: every open Team page hears which invitation became which member', async () => {
    const socket = await openSocket(owner);
    const email = uniqueEmail('joining');
    const invitation = await invite(owner, email, 'AGENT');
    const res = await accept(await latestInvitationToken(email), { name: 'Joining Colleague' });
    expect(res.status).toBe(201);
    const joined = res.body.data.user;

    const event = await socket.next('invitation_accepted');
    expect(event.data).toEqual({
      invitationId: invitation.id,
      user: {
        id: joined.id,
        name: 'Joining Colleague',
        email,
        role: 'AGENT',
        avatarUrl: null,
        lastActiveAt: expect.any(String),
      },
    });
    // What the event says is what the lists now answer.
    const pending = await callRoute(endpoints.listInvitations, { token: owner.tokens.accessToken });
    expect(pending.body.data.invitations.map((i) => i.id)).not.toContain(invitation.id);
    // The list also says whether their phone is ready (docs/product.md §10.5): it is not, yet.
    const team = await callRoute(endpoints.listUsers, { token: owner.tokens.accessToken });
    expect(team.body.data.users.find((u) => u.id === joined.id)).toEqual({ ...event.data.user, phoneReady: false });
    await socket.close();
  });
});

describe('an invitation sent, sent again, revoked or withdrawn', () => {
  it("is an event to the company: another manager's open Team page hears it, another company's does not", async () => {
    const boss = await signUp({ companyName: 'Two Managers Co', name: 'Bea Boss' });
    const admin = await addTeamMember(boss, { role: 'ADMIN', name: 'Alex Admin' });
    const stranger = await signUp({ companyName: 'Elsewhere Co' });
    const [adminTab, bossTab, strangerTab] = await Promise.all([openSocket(admin), openSocket(boss), openSocket(stranger)]);
    const pending = async () =>
      (await callRoute(endpoints.listInvitations, { token: admin.tokens.accessToken })).body.data.invitations;

    // Sent: the event carries it as the list now answers it.
    const sent = await invite(boss, uniqueEmail('pending'), 'AGENT');
    expect((await adminTab.next('invitation_changed')).data).toEqual({ invitationId: sent.id, invitation: sent });
    expect(await pending()).toContainEqual(sent);

    // Sent again: a new expiry.
    const resent = await callRoute(endpoints.resendInvitation, { params: { id: sent.id }, token: boss.tokens.accessToken });
    expect(resent.status).toBe(200);
    const renewed = await adminTab.next('invitation_changed');
    expect(renewed.data).toEqual({ invitationId: sent.id, invitation: resent.body.data.invitation });
    expect(await pending()).toContainEqual(resent.body.data.invitation);

    // Revoked: gone.
    const revoked = await callRoute(endpoints.revokeInvitation, { params: { id: sent.id }, token: boss.tokens.accessToken });
    expect(revoked.status).toBe(200);
    expect((await adminTab.next('invitation_changed')).data).toEqual({ invitationId: sent.id, invitation: null });
    expect((await pending()).map((i) => i.id)).not.toContain(sent.id);

    // Withdrawn with its sender: the admin's invitation leaves when the owner removes the admin.
    const theirs = await invite(admin, uniqueEmail('theirs'), 'AGENT');
    await bossTab.next('invitation_changed', (e) => e.data.invitationId === theirs.id && e.data.invitation !== null);
    const removed = await callRoute(endpoints.removeUser, { params: { id: admin.user.id }, token: boss.tokens.accessToken });
    expect(removed.status).toBe(200);
    const withdrawn = await bossTab.next('invitation_changed', (e) => e.data.invitationId === theirs.id);
    expect(withdrawn.data).toEqual({ invitationId: theirs.id, invitation: null });
    const left = await callRoute(endpoints.listInvitations, { token: boss.tokens.accessToken });
    expect(left.body.data.invitations).toEqual([]);

    await strangerTab.beat();
    expect(strangerTab.log.filter((e) => e.type === 'invitation_changed')).toEqual([]);
    await Promise.all([adminTab.close(), bossTab.close(), strangerTab.close()]);
  });
});
