import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { keys } from '../../functions/lib/table';
import { SESSION_TOKEN_FAILURE_LIMIT } from '../../shared/constants';
import { type Account, callRoute, newClientAddress, refresh, signIn, signUp } from '../support/api';
import { endpoints } from '../support/endpoints';
import { withChannel } from '../support/settings';
import { testTable } from '../support/table';
import { spentLongAgo } from '../support/tokens';

/**
 * Sessions (docs/security.md: Sessions): an access token is only as good as the sign-in session it was issued for.
 * Once that session ends (sign-out, sign-out everywhere, a reused refresh token), every route refuses
 * the earlier access token at once, not when it expires 15 minutes later.
 */
/** What a holder of `accessToken` gets from routes of every kind: the statuses, in this order. */
async function statuses(accessToken: string) {
  const answers = await Promise.all([
    callRoute(endpoints.me, { token: accessToken }),
    callRoute(endpoints.listContacts, { token: accessToken }),
    callRoute(endpoints.voiceToken, { token: accessToken }),
    callRoute(endpoints.realtimeTicket, { token: accessToken }),
  ]);
  return answers.map((res) => res.status);
}

const STILL_SIGNED_IN = [200, 200, 200, 201]; // a ticket is created: 201
const SIGNED_OUT = [401, 401, 401, 401];

/** A signed-up owner whose company has Twilio connected, so a voice token can be issued. */
async function owner(): Promise<Account> {
  const account = await signUp();
  await withChannel(account);
  return account;
}

describe('an access token whose sign-in session ended', () => {
  it('is refused everywhere right after signing out; the same user’s other session goes on', async () => {
    const account = await owner();
    const [session, otherDevice] = [(await signIn(account)).tokens, (await signIn(account)).tokens];
    expect(await statuses(session.accessToken)).toEqual(STILL_SIGNED_IN);

    expect((await callRoute(endpoints.logout, { body: { refreshToken: session.refreshToken } })).status).toBe(200);
    expect(await statuses(session.accessToken)).toEqual(SIGNED_OUT);
    const me = await callRoute(endpoints.me, { token: session.accessToken });
    expect(me.body.error).toEqual({ code: 'SESSION_ENDED', message: 'Your session has ended. Please sign in again.' });

    expect(await statuses(otherDevice.accessToken)).toEqual(STILL_SIGNED_IN);
  });

  it('is refused everywhere, for every session of the user, right after signing out everywhere', async () => {
    const account = await owner();
    const sessions = [(await signIn(account)).tokens, (await signIn(account)).tokens, account.tokens];
    const res = await callRoute(endpoints.logoutAll, { token: sessions[0]?.accessToken });
    expect(res.status).toBe(200);
    for (const session of sessions) expect(await statuses(session.accessToken)).toEqual(SIGNED_OUT);
  });

  it('is refused everywhere right after its refresh token was reused (the whole session is revoked)', async () => {
    const account = await owner();
    const session = (await signIn(account)).tokens;
    const rotated = await refresh(session.refreshToken);
    expect(rotated.status).toBe(200);
    await spentLongAgo(session.refreshToken);
    expect((await refresh(session.refreshToken)).body.error.code).toBe('REFRESH_TOKEN_REUSED');

    // Both the thief's and the holder's access tokens of that session.
    expect(await statuses(session.accessToken)).toEqual(SIGNED_OUT);
    expect(await statuses(rotated.body.data.tokens.accessToken)).toEqual(SIGNED_OUT);
  });

  it('is refused once its session has expired (30 days after sign-in), even inside its own 15 minutes', async () => {
    const account = await signUp();
    const session = (await signIn(account)).tokens;
    const { client, tableName } = testTable();
    const familyId = (decodeJwt(session.accessToken) as { sid: string }).sid;
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.refreshFamily(familyId),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    expect((await callRoute(endpoints.me, { token: session.accessToken })).status).toBe(401);
  });
});

describe('refresh and sign-out under a flood of junk refresh tokens', () => {
  const junkRefresh = (address: string) =>
    callRoute(endpoints.refresh, { body: { refreshToken: 'AAAAAAAAAAAAAAAAAAAAAA' }, address });

  it('stop the flooding address with 429 and when to come back; live sessions elsewhere refresh and sign out as usual', async () => {
    const account = await signUp();
    const session = (await signIn(account)).tokens;
    const flood = newClientAddress();
    await Promise.all(Array.from({ length: SESSION_TOKEN_FAILURE_LIMIT }, () => junkRefresh(flood)));
    // Fixed one-minute windows: the flood goes on until this minute's budget is used up.
    await expect.poll(async () => (await junkRefresh(flood)).status, { timeout: 30_000 }).toBe(429);

    const throttled = await junkRefresh(flood);
    expect(throttled.status).toBe(429);
    expect(throttled.body.error.code).toBe('TOO_MANY_REQUESTS');
    expect(throttled.body.error.message).toBe(
      'Too many attempts to renew or end a session from your network. Please try again in 1 minute.',
    );
    const retryAfter = Number(throttled.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(throttled.body.error.details).toEqual({ retryAfterSeconds: retryAfter });
    const junkLogout = await callRoute(endpoints.logout, { body: { refreshToken: 'AAAAAAAAAAAAAAAAAAAAAA' }, address: flood });
    expect(junkLogout.status).toBe(429);

    // Everyone else: the flood used up nobody's limit but its own address's.
    const elsewhere = newClientAddress();
    const refreshed = await callRoute(endpoints.refresh, { body: { refreshToken: session.refreshToken }, address: elsewhere });
    expect(refreshed.status).toBe(200);
    expect((await callRoute(endpoints.me, { token: refreshed.body.data.tokens.accessToken })).status).toBe(200);
    const out = await callRoute(endpoints.logout, {
      body: { refreshToken: refreshed.body.data.tokens.refreshToken },
      address: elsewhere,
    });
    expect(out.status).toBe(200);
    expect((await callRoute(endpoints.me, { token: refreshed.body.data.tokens.accessToken })).status).toBe(401);
  });

  it('count only tokens that fail: an address refreshing live sessions far past the limit is never throttled', async () => {
    const account = await signUp();
    let tokens = (await signIn(account)).tokens;
    const office = newClientAddress();
    for (let i = 0; i <= SESSION_TOKEN_FAILURE_LIMIT + 5; i++) {
      const res = await callRoute(endpoints.refresh, { body: { refreshToken: tokens.refreshToken }, address: office });
      expect(res.status).toBe(200);
      tokens = res.body.data.tokens;
    }
  });
});
