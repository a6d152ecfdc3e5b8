import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Account, callRoute, signUp } from '../support/api';
import { endpoints } from '../support/endpoints';
import { ownGateway } from '../support/own-gateway';
import { createInbox, withChannel } from '../support/settings';
import { addTeamMember } from '../support/team';
import { verifyAccessToken } from '../support/twilio';
import { addInboxMember, identityOf, routeChannel, voiceToken } from '../support/voice';

describe('company settings', () => {
  it('default to US without numbers, then take the country of the first imported number', async () => {
    const owner = await signUp();
    const token = owner.tokens.accessToken;
    const before = await callRoute(endpoints.companySettings, { token });
    expect(before.status).toBe(200);
    expect(before.body.data.settings.default_country_code).toEqual({ code: 'US' });
    const { channel } = await withChannel(owner);
    expect(channel.identifier).toMatch(/^\+1/);
    const after = await callRoute(endpoints.companySettings, { token });
    expect(after.body.data.settings.default_country_code.code).toBe('US');
    expect((await callRoute(endpoints.companySettings)).status).toBe(401);
  });
});

describe('caller IDs', () => {
  it('are the voice numbers of the user’s inboxes and those routed to the user, nobody else’s', async () => {
    const owner = await signUp();
    const agent = await addTeamMember(owner);
    const { channel } = await withChannel(owner);
    const callerIds = async (who = owner) =>
      (await callRoute(endpoints.listCallerIds, { token: who.tokens.accessToken })).body.data.callerIds;

    expect(await callerIds()).toEqual([]);
    const inbox = await createInbox(owner, 'Support');
    await routeChannel(owner, channel, 'INBOX', inbox.id);
    // Routed to an inbox the user is not a member of: not a caller ID.
    expect(await callerIds()).toEqual([]);
    await addInboxMember(owner, inbox.id, agent.user.id);
    expect(await callerIds(agent)).toEqual([{ phoneNumber: channel.identifier, inboxName: 'Support', channelId: channel.id }]);
    expect(await callerIds()).toEqual([]);

    await routeChannel(owner, channel, 'USER', owner.user.id);
    expect(await callerIds()).toEqual([{ phoneNumber: channel.identifier, inboxName: null, channelId: channel.id }]);
    expect(await callerIds(agent)).toEqual([]);

    // Another company sees none of them.
    expect(await callerIds(await signUp())).toEqual([]);
  });
});

describe('voice token', () => {
  it('is a Twilio Access Token Twilio accepts: the user’s identity, a voice grant for the company’s app, 15 minutes', async () => {
    const owner = await signUp();
    await withChannel(owner);
    const token = await voiceToken(owner);
    const check = await verifyAccessToken(token);
    expect(check.error).toBeNull();
    expect(check.valid).toBe(true);
    expect(check.identity).toBe(identityOf(owner));
    expect(check.grants?.voice?.incoming?.allow).toBe(true);
    expect(check.grants?.voice?.outgoing?.application_sid).toMatch(/^AP/);
    const lifetime = Date.parse(check.expiresAt ?? '') - Date.now();
    expect(lifetime).toBeGreaterThan(14 * 60 * 1000);
    expect(lifetime).toBeLessThanOrEqual(15 * 60 * 1000);

    // Nothing of the user but the id reaches the token.
    const payload = Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8');
    expect(payload).not.toContain(owner.email);
    expect(payload).not.toContain(owner.user.name);
  });

  it('answers PROVIDER_NOT_FOUND without a provider', async () => {
    const owner = await signUp();
    const res = await callRoute(endpoints.voiceToken, { token: owner.tokens.accessToken });
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('PROVIDER_NOT_FOUND');
  });
});

describe('voice token limit', () => {
  // Counted in fixed 5-minute windows: on the real clock a run that crosses a window's end starts
  // counting again. A gateway of this file's own on a stopped clock keeps the requests in one window.
  const gateway = ownGateway({ functions: 'in-process' });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is limited per user', async () => {
    const owner = await signUp();
    await withChannel(owner);
    const colleague = await addTeamMember(owner);
    const ask = (account: Account) => gateway.callRoute(endpoints.voiceToken, { token: account.tokens.accessToken });
    vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      statuses.push((await ask(owner)).status);
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    // Past the limit: the reason, and when to come back (the end of the 5-minute window) for the widget to retry.
    const refused = await ask(owner);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('TOO_MANY_REQUESTS');
    expect(refused.body.error.message).toMatch(/^Too many calling tokens requested\. Try again in [1-5] minutes?\.$/);
    const wait = Number(refused.body.error.details?.retryAfterSeconds);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(300);
    expect(refused.headers.get('retry-after')).toBe(String(wait));
    // Another user of the company is not affected.
    expect((await ask(colleague)).status).toBe(200);
  });
});
