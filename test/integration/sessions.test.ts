import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { hashOpaqueToken } from '../../functions/auth/opaque-tokens';
import { keys } from '../../functions/lib/table';
import type { User } from '../../shared/contract/auth';
import { callRoute, refresh, signIn, signUp, stack, unchecked } from '../support/api';
import { endpoints } from '../support/endpoints';
import { openSocket } from '../support/socket';
import { testTable } from '../support/table';
import { spentLongAgo } from '../support/tokens';

describe('refresh tokens', () => {
  it('rotate on every use and keep the user active', async () => {
    const account = await signUp();
    const first = await signIn(account);
    const second = await refresh(first.tokens.refreshToken);
    expect(second.status).toBe(200);
    const third = await refresh(second.body.data.tokens.refreshToken);
    expect(third.status).toBe(200);
    const me = await callRoute(endpoints.me, { token: third.body.data.tokens.accessToken });
    expect(me.status).toBe(200);
    expect(Date.parse(me.body.data.user.lastActiveAt ?? '')).toBeGreaterThanOrEqual(Date.parse(first.user.lastActiveAt ?? ''));
  });

  it('answer a spent token with the same successor for a few seconds (two tabs refreshing at once)', async () => {
    const account = await signUp();
    const session = await signIn(account);
    const [tabA, tabB] = await Promise.all([refresh(session.tokens.refreshToken), refresh(session.tokens.refreshToken)]);
    expect([tabA.status, tabB.status]).toEqual([200, 200]);
    expect(tabA.body.data.tokens.refreshToken).toBe(tabB.body.data.tokens.refreshToken);
    const late = await refresh(session.tokens.refreshToken);
    expect(late.status).toBe(200);
    expect(late.body.data.tokens.refreshToken).toBe(tabA.body.data.tokens.refreshToken);
    // The session goes on from the one successor.
    const next = await refresh(tabB.body.data.tokens.refreshToken);
    expect(next.status).toBe(200);
    expect((await callRoute(endpoints.me, { token: next.body.data.tokens.accessToken })).status).toBe(200);
  });

  it('revoke the whole family when a spent token is presented again after the grace period', async () => {
    const account = await signUp();
    const session = await signIn(account);
    const rotated = await refresh(session.tokens.refreshToken);
    expect(rotated.status).toBe(200);
    await spentLongAgo(session.tokens.refreshToken);

    const replay = await refresh(session.tokens.refreshToken);
    expect(replay.status).toBe(401);
    expect(replay.body.error.code).toBe('REFRESH_TOKEN_REUSED');

    // The thief's replay also ends the legitimate holder's newer token.
    const newer = await refresh(rotated.body.data.tokens.refreshToken);
    expect(newer.status).toBe(401);

    // Other sessions of the same user are separate families and keep working.
    const otherDevice = await signIn(account);
    expect((await refresh(otherDevice.tokens.refreshToken)).status).toBe(200);
  });

  it('expire 30 days after sign-in however often they are used', async () => {
    const account = await signUp();
    const session = await signIn(account);
    const rotated = await refresh(session.tokens.refreshToken);
    const { client, tableName } = testTable();
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.refreshToken(hashOpaqueToken(rotated.body.data.tokens.refreshToken)),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    const res = await refresh(rotated.body.data.tokens.refreshToken);
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe('Your session has expired. Please sign in again.');
  });

  it('refuse unknown and missing tokens', async () => {
    expect((await refresh('AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(401);
    const missing = await callRoute(endpoints.refresh, { body: unchecked({}) });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('Refresh token is required');
  });
});

describe('signing out', () => {
  const logout = (refreshToken: string) => callRoute(endpoints.logout, { body: { refreshToken } });

  it('ends the session on the server: a copied refresh token stops working and the session’s socket closes', async () => {
    const account = await signUp();
    const session = await signIn(account);
    const otherDevice = await signIn(account);
    const socket = await openSocket(session.tokens.accessToken);
    const otherSocket = await openSocket(otherDevice.tokens.accessToken);

    expect((await logout(session.tokens.refreshToken)).status).toBe(200);
    expect(await socket.closed).toBe(1000);
    const copied = await refresh(session.tokens.refreshToken);
    expect(copied.status).toBe(401);
    expect(copied.body.error.message).toBe('Your session has expired. Please sign in again.');

    // Only that session: the other device carries on, its socket open.
    expect((await refresh(otherDevice.tokens.refreshToken)).status).toBe(200);
    expect(otherSocket.ws.readyState).toBe(otherSocket.ws.OPEN);
    otherSocket.ws.close();
    // Signing out twice, or with an unknown token, is not an error.
    expect((await logout(session.tokens.refreshToken)).status).toBe(200);
  });

  it('everywhere ends every session of the user and closes all their sockets, and no one else’s', async () => {
    const account = await signUp();
    const bystander = await signUp();
    const sessions = [await signIn(account), await signIn(account)];
    const sockets = await Promise.all(sessions.map((s) => openSocket(s.tokens.accessToken)));
    const bystanderSocket = await openSocket(bystander.tokens.accessToken);

    const res = await callRoute(endpoints.logoutAll, { token: sessions[0]?.tokens.accessToken });
    expect(res.status).toBe(200);
    expect(await Promise.all(sockets.map((s) => s.closed))).toEqual([1000, 1000]);
    for (const s of [...sessions, account]) expect((await refresh(s.tokens.refreshToken)).status).toBe(401);

    expect((await refresh(bystander.tokens.refreshToken)).status).toBe(200);
    expect(bystanderSocket.ws.readyState).toBe(bystanderSocket.ws.OPEN);
    bystanderSocket.ws.close();
    expect((await callRoute(endpoints.logoutAll)).status).toBe(401);
  });

  it('happens to the session whose refresh token is reused: its socket closes too', async () => {
    const account = await signUp();
    const session = await signIn(account);
    const socket = await openSocket(session.tokens.accessToken);
    expect((await refresh(session.tokens.refreshToken)).status).toBe(200);
    await spentLongAgo(session.tokens.refreshToken);
    expect((await refresh(session.tokens.refreshToken)).body.error.code).toBe('REFRESH_TOKEN_REUSED');
    expect(await socket.closed).toBe(1000);
  });
});

describe('access tokens', () => {
  const secret = () => new TextEncoder().encode(stack().env.JWT_SECRET);
  const claims = (user: User) => ({ cid: user.companyId, adm: false });

  it('are required by /me', async () => {
    const res = await callRoute(endpoints.me);
    expect(res.status).toBe(401);
    expect(res.body.error).toEqual({ code: 'UNAUTHORIZED', message: 'Authentication required' });
  });

  it('are refused when expired, with a code the client refreshes on', async () => {
    const { user } = await signUp();
    const expired = await new SignJWT(claims(user))
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuer('switchboard')
      .setAudience('switchboard-app')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(secret());
    const res = await callRoute(endpoints.me, { token: expired });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('TOKEN_EXPIRED');
  });

  it('are refused with the wrong key, audience, issuer or algorithm', async () => {
    const { user } = await signUp();
    const base = () => new SignJWT(claims(user)).setSubject(user.id).setIssuedAt().setExpirationTime('5m');
    const forged = [
      await base()
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('switchboard')
        .setAudience('switchboard-app')
        .sign(new TextEncoder().encode('x'.repeat(64))),
      await base().setProtectedHeader({ alg: 'HS256' }).setIssuer('switchboard').setAudience('someone-else').sign(secret()),
      await base().setProtectedHeader({ alg: 'HS256' }).setIssuer('evil').setAudience('switchboard-app').sign(secret()),
      await base()
        .setProtectedHeader({ alg: 'HS512' })
        .setIssuer('switchboard')
        .setAudience('switchboard-app')
        .sign(new Uint8Array(64).fill(1)),
      // alg "none": header and payload only.
      `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: user.id, ...claims(user), iss: 'switchboard', aud: 'switchboard-app' })).toString('base64url')}.`,
    ];
    for (const token of forged) {
      const res = await callRoute(endpoints.me, { token });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    }
  });
});
