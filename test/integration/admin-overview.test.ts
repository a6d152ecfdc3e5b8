import { describe, expect, it } from 'vitest';
import type { AdminCompany } from '../../shared/contract/admin';
import { type Account, callRoute, mailTo, newClientAddress, signUp, uniqueEmail } from '../support/api';
import { endpoints } from '../support/endpoints';
import { PLATFORM_ADMIN_NAMED, PLATFORM_ADMIN_OVERVIEW } from '../support/global-setup';
import { withChannel } from '../support/settings';
import { addTeamMember } from '../support/team';
import { withClaims } from '../support/tokens';
import { textFromPhone } from '../support/twilio';

let admin: Promise<Account> | undefined;
/** The platform administrator, signed up once for this file. */
const platformAdmin = () => {
  admin ??= signUp({ email: PLATFORM_ADMIN_OVERVIEW, companyName: 'Platform Ops' });
  return admin;
};

async function overview(account: Account, cursor?: string) {
  const res = await callRoute(endpoints.adminOverview, { query: { cursor }, token: account.tokens.accessToken });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The company as the overview lists it, paging back from the newest. */
async function listed(account: Account, companyId: string): Promise<AdminCompany | undefined> {
  let cursor: string | undefined;
  do {
    const page = await overview(account, cursor);
    const found = page.companies.find((c) => c.id === companyId);
    if (found) return found;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return undefined;
}

describe('admin overview', () => {
  it('refuses a normal user and a company OWNER', async () => {
    const owner = await signUp();
    const agent = await addTeamMember(owner);
    for (const account of [owner, agent]) {
      const res = await callRoute(endpoints.adminOverview, { token: account.tokens.accessToken });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'FORBIDDEN', message: 'Access denied. Admin privileges required.' });
    }
    expect((await callRoute(endpoints.adminOverview)).status).toBe(401);
  });

  it('follows the operator’s list at every request, not the access token of an earlier moment', async () => {
    // Signed in before the operator named the address: the token still says no.
    const named = await signUp({ email: PLATFORM_ADMIN_NAMED, companyName: 'Newly Named Ops' });
    const before = await withClaims(named.tokens.accessToken, { adm: false });
    expect((await callRoute(endpoints.adminOverview, { token: before })).status).toBe(200);
    const me = await callRoute(endpoints.me, { token: before });
    expect(me.body.data.user.isPlatformAdmin).toBe(true);

    // Signed in while the address was on the list, which the operator has since taken it off.
    const former = await signUp();
    const stale = await withClaims(former.tokens.accessToken, { adm: true });
    const refused = await callRoute(endpoints.adminOverview, { token: stale });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', message: 'Access denied. Admin privileges required.' });
  });

  it('counts sign-ups, verifications and team members, and lists each company with its owner', async () => {
    const ops = await platformAdmin();
    const before = await overview(ops);

    const verified = await signUp({ companyName: 'Verified Co', name: 'Vera Owner' });
    const colleague = await addTeamMember(verified);
    const pendingEmail = uniqueEmail('pending');
    const registered = await callRoute(endpoints.register, {
      body: { companyName: 'Pending Co', name: 'Pat Pending', email: pendingEmail, password: 'long enough pw' },
      address: newClientAddress(),
    });
    expect(registered.status).toBe(201);
    expect(await mailTo(pendingEmail)).toHaveLength(1);

    const after = await overview(ops);
    // Other test files sign up at the same time: at least what this test added.
    expect(after.totalCompanies - before.totalCompanies).toBeGreaterThanOrEqual(2);
    expect(after.totalUsers - before.totalUsers).toBeGreaterThanOrEqual(3);
    expect(after.verifiedUsers - before.verifiedUsers).toBeGreaterThanOrEqual(2);
    expect(after.verifiedUsers).toBeLessThanOrEqual(after.totalUsers);

    expect(await listed(ops, verified.company.id)).toEqual({
      id: verified.company.id,
      name: 'Verified Co',
      owner: { name: 'Vera Owner', email: verified.email, emailVerified: true },
      twilioConfigured: false,
      hasActivity: false,
      stats: { smsSent: 0, smsReceived: 0 },
      createdAt: expect.any(String),
    });
    expect(colleague.user.companyId).toBe(verified.company.id);
    expect(await listed(ops, registered.body.data.company.id)).toMatchObject({
      name: 'Pending Co',
      owner: { name: 'Pat Pending', email: pendingEmail, emailVerified: false },
    });
  });

  it('shows a connected Twilio account and the texts sent and received', async () => {
    const ops = await platformAdmin();
    const owner = await signUp({ companyName: 'Connected Co' });
    const { channel } = await withChannel(owner);
    expect(await listed(ops, owner.company.id)).toMatchObject({ twilioConfigured: true, hasActivity: false });

    const phone = '+12025550188';
    await textFromPhone({ from: phone, to: channel.identifier, body: 'Hello' });
    await textFromPhone({ from: phone, to: channel.identifier, body: 'Anyone there?' });
    const list = await callRoute(endpoints.listConversations, { token: owner.tokens.accessToken });
    const conversationId = list.body.data.conversations[0]?.id;
    const sent = await callRoute(endpoints.sendMessage, {
      params: { id: String(conversationId) },
      token: owner.tokens.accessToken,
      body: { body: 'Yes, how can we help?' },
    });
    expect(sent.status).toBeLessThan(300);
    expect(await listed(ops, owner.company.id)).toMatchObject({
      twilioConfigured: true,
      hasActivity: true,
      stats: { smsSent: 1, smsReceived: 2 },
    });
  });

  it('lists companies newest first and refuses a made-up cursor', async () => {
    const ops = await platformAdmin();
    const first = await signUp({ companyName: 'Older Co' });
    const second = await signUp({ companyName: 'Newer Co' });
    const { companies } = await overview(ops);
    const ids = companies.map((c) => c.id);
    expect(ids.indexOf(second.company.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(second.company.id)).toBeLessThan(ids.indexOf(first.company.id));
    const times = companies.map((c) => c.createdAt);
    expect(times).toEqual([...times].sort().reverse());

    const bad = await callRoute(endpoints.adminOverview, {
      query: { cursor: Buffer.from('COMPANY#x').toString('base64url') },
      token: ops.tokens.accessToken,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('cursor is invalid');
  });
});
