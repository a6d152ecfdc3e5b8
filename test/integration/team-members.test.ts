import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, callRoute, signUp, unchecked } from '../support/api';
import { endpoints } from '../support/endpoints';
import { openSocket } from '../support/realtime';
import { createInbox, withChannel } from '../support/settings';
import { addTeamMember, invite, latestInvitationToken } from '../support/team';
import { addInboxMember, routeChannel } from '../support/voice';

let owner: Account;

beforeAll(async () => {
  owner = await signUp({ companyName: 'Members Co' });
});

const teamEmails = async (account: Account) =>
  (await callRoute(endpoints.listUsers, { token: account.tokens.accessToken })).body.data.users.map((u) => u.email);

describe('removing a user', () => {
  it('signs them out everywhere, takes them out of inboxes and routing, and keeps the rest of the company as it was', async () => {
    const agent = await addTeamMember(owner, { name: 'Leaving Agent' });
    const { channel } = await withChannel(owner);
    const inbox = await createInbox(owner, 'Front desk');
    await addInboxMember(owner, inbox.id, agent.user.id);
    await addInboxMember(owner, inbox.id, owner.user.id);
    await routeChannel(owner, channel, 'USER', agent.user.id);
    const socket = await openSocket(agent);

    const removed = await callRoute(endpoints.removeUser, { params: { id: agent.user.id }, token: owner.tokens.accessToken });
    expect(removed.status).toBe(200);

    expect(await socket.closed).toBe(1000);
    expect(await teamEmails(owner)).not.toContain(agent.email);
    const login = await callRoute(endpoints.login, { body: { email: agent.email, password: agent.password } });
    expect(login.status).toBe(401);
    const refresh = await callRoute(endpoints.refresh, { body: { refreshToken: agent.tokens.refreshToken } });
    expect(refresh.status).toBe(401);
    // The access token they still hold is refused at once, not when it expires.
    expect((await callRoute(endpoints.listUsers, { token: agent.tokens.accessToken })).status).toBe(401);

    const detail = await callRoute(endpoints.getInbox, { params: { id: inbox.id }, token: owner.tokens.accessToken });
    expect(detail.body.data.inbox.members.map((m) => m.userId)).toEqual([owner.user.id]);
    expect(detail.body.data.inbox.memberCount).toBe(1);
    const channels = await callRoute(endpoints.listChannels, { token: owner.tokens.accessToken });
    expect(channels.body.data.channels.find((c) => c.id === channel.id)).toMatchObject({
      routingType: 'UNASSIGNED',
      routingTargetId: null,
    });

    // A removed user cannot be given work again; their address can be invited again.
    const add = await callRoute(endpoints.addInboxMember, {
      params: { id: inbox.id },
      token: owner.tokens.accessToken,
      body: { userId: agent.user.id },
    });
    expect(add.status).toBe(404);
    const route = await callRoute(endpoints.updateChannelRouting, {
      params: { id: channel.id },
      token: owner.tokens.accessToken,
      body: { routingType: 'USER', routingTargetId: agent.user.id },
    });
    expect(route.status).toBe(404);
    await invite(owner, agent.email);
    const back = await callRoute(endpoints.acceptInvitation, {
      body: { token: await latestInvitationToken(agent.email), name: 'Back Again', password: 'another password' },
    });
    expect(back.status).toBe(201);
    expect(back.body.data.user.id).not.toBe(agent.user.id);
  });

  it('lets an ADMIN remove an agent, only the owner remove an admin, and nobody the owner or themselves', async () => {
    const admin = await addTeamMember(owner, { role: 'ADMIN' });
    const otherAdmin = await addTeamMember(owner, { role: 'ADMIN' });
    const agent = await addTeamMember(owner, { role: 'AGENT' });

    const ownerGone = await callRoute(endpoints.removeUser, { params: { id: owner.user.id }, token: admin.tokens.accessToken });
    expect(ownerGone.status).toBe(403);
    expect(ownerGone.body.error.message).toBe('You cannot remove the owner.');
    const self = await callRoute(endpoints.removeUser, { params: { id: owner.user.id }, token: owner.tokens.accessToken });
    expect(self.status).toBe(403);
    expect(self.body.error.message).toBe('You cannot remove yourself.');
    const byAgent = await callRoute(endpoints.removeUser, {
      params: { id: otherAdmin.user.id },
      token: agent.tokens.accessToken,
    });
    expect(byAgent.status).toBe(403);
    // Only the owner takes ADMIN away.
    const adminByAdmin = await callRoute(endpoints.removeUser, {
      params: { id: otherAdmin.user.id },
      token: admin.tokens.accessToken,
    });
    expect(adminByAdmin.status).toBe(403);
    expect(adminByAdmin.body.error.message).toBe('Only the owner can remove an admin.');

    expect(
      (await callRoute(endpoints.removeUser, { params: { id: agent.user.id }, token: admin.tokens.accessToken })).status,
    ).toBe(200);
    expect(
      (await callRoute(endpoints.removeUser, { params: { id: otherAdmin.user.id }, token: owner.tokens.accessToken })).status,
    ).toBe(200);
    expect(
      (await callRoute(endpoints.removeUser, { params: { id: agent.user.id }, token: admin.tokens.accessToken })).status,
    ).toBe(404);
    expect(await teamEmails(owner)).toEqual(expect.arrayContaining([owner.email, admin.email]));
    expect(await teamEmails(owner)).not.toContain(otherAdmin.email);
  });
});

describe("changing a user's role", () => {
  it('is for the OWNER only, between ADMIN and AGENT, and applies to the very next request', async () => {
    const agent = await addTeamMember(owner, { role: 'AGENT' });
    const admin = await addTeamMember(owner, { role: 'ADMIN' });

    const byAdmin = await callRoute(endpoints.updateUserRole, {
      params: { id: agent.user.id },
      token: admin.tokens.accessToken,
      body: { role: 'ADMIN' },
    });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.error.message).toBe('Only the owner can do this.');

    const promoted = await callRoute(endpoints.updateUserRole, {
      params: { id: agent.user.id },
      token: owner.tokens.accessToken,
      body: { role: 'ADMIN' },
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body.data).toEqual({ user: { id: agent.user.id, role: 'ADMIN' } });
    // The agent's access token was issued before the change, yet may invite now.
    const invited = await callRoute(endpoints.createInvitation, {
      token: agent.tokens.accessToken,
      body: { email: `x-${Date.now()}@example.test`, role: 'AGENT' },
    });
    expect(invited.status).toBe(201);

    const demoted = await callRoute(endpoints.updateUserRole, {
      params: { id: admin.user.id },
      token: owner.tokens.accessToken,
      body: { role: 'AGENT' },
    });
    expect(demoted.status).toBe(200);
    expect(
      (
        await callRoute(endpoints.createInvitation, {
          token: admin.tokens.accessToken,
          body: { email: `y-${Date.now()}@example.test`, role: 'AGENT' },
        })
      ).status,
    ).toBe(403);
    const team = await callRoute(endpoints.listUsers, { token: owner.tokens.accessToken });
    expect(team.body.data.users.find((u) => u.id === admin.user.id)?.role).toBe('AGENT');

    const toOwner = await callRoute(endpoints.updateUserRole, {
      params: { id: agent.user.id },
      token: owner.tokens.accessToken,
      body: { role: unchecked('OWNER') },
    });
    expect(toOwner.status).toBe(400);
    const ownSelf = await callRoute(endpoints.updateUserRole, {
      params: { id: owner.user.id },
      token: owner.tokens.accessToken,
      body: { role: 'AGENT' },
    });
    expect(ownSelf.status).toBe(403);
  });
});

describe("another company's user", () => {
  it('gets 404 removing or changing a user by id, and nothing changes', async () => {
    const stranger = await signUp({ companyName: 'Stranger Co' });
    const agent = await addTeamMember(owner);
    const remove = await callRoute(endpoints.removeUser, { params: { id: agent.user.id }, token: stranger.tokens.accessToken });
    const change = await callRoute(endpoints.updateUserRole, {
      params: { id: agent.user.id },
      token: stranger.tokens.accessToken,
      body: { role: 'ADMIN' },
    });
    expect([remove.status, change.status]).toEqual([404, 404]);
    const team = await callRoute(endpoints.listUsers, { token: owner.tokens.accessToken });
    expect(team.body.data.users.find((u) => u.id === agent.user.id)?.role).toBe('AGENT');
    expect((await callRoute(endpoints.login, { body: { email: agent.email, password: agent.password } })).status).toBe(200);
  });
});
