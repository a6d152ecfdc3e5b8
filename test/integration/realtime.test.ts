import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { hashOpaqueToken } from '../../functions/auth/opaque-tokens';
import { epochSeconds, keys } from '../../functions/lib/table';
import { PRESENCE_LAPSE_SECONDS } from '../../shared/constants';
import { socketQuietHeartbeat } from '../../shared/contract/realtime-events';
import { type Account, callRoute, signUp, stack } from '../support/api';
import { endpoints } from '../support/endpoints';
import { openSocket, openSocketAt, socketUrl, ticketFor } from '../support/realtime';
import { itemsUnder, testTable } from '../support/table';
import { addTeamMember } from '../support/team';

type Realtime = typeof import('../../functions/realtime/publish');
let publish: Realtime['publish'];
let disconnectUser: Realtime['disconnectUser'];

beforeAll(async () => {
  // The publisher runs here as it runs in a Lambda: configured by environment, talking to the
  // gateway's @connections endpoint through the real ApiGatewayManagementApiClient.
  Object.assign(process.env, stack().env);
  ({ publish, disconnectUser } = await import('../../functions/realtime/publish'));
});

const connections = (companyId: string) => itemsUnder<{ connectionId: string; userId: string }>(keys.connectionsOf(companyId));

const refusal = (url: string) =>
  openSocketAt(url).then(
    (socket) => {
      socket.ws.close();
      return 'open';
    },
    (error: Error) => error.message,
  );

describe('socket tickets', () => {
  it('are issued only to a signed-in user, single use, for 30 seconds, for the own company only', async () => {
    const owner = await signUp();
    const other = await signUp({ companyName: 'Other Co' });
    expect((await callRoute(endpoints.realtimeTicket)).status).toBe(401);

    const url = (companyId: string, ticket?: string) => socketUrl(companyId, ticket ? { ticket } : {});
    expect(await refusal(url(owner.company.id))).toBe('handshake 401');
    // The access token is no ticket: no long-lived credential is accepted in a URL.
    expect(await refusal(socketUrl(owner.company.id, { token: owner.tokens.accessToken }))).toBe('handshake 401');
    expect(await refusal(url(owner.company.id, 'made-up'))).toBe('handshake 401');

    const ticket = await ticketFor(owner);
    const socket = await openSocketAt(url(owner.company.id, ticket));
    expect(await refusal(url(owner.company.id, ticket))).toBe('handshake 401');
    await socket.close();

    const stale = await ticketFor(owner);
    const { client, tableName } = testTable();
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.realtimeTicket(hashOpaqueToken(stale)),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': epochSeconds() - 31 },
      }),
    );
    expect(await refusal(url(owner.company.id, stale))).toBe('handshake 401');

    expect(await refusal(url(other.company.id, await ticketFor(owner)))).toBe('handshake 403');
    expect(await refusal(socketUrl(owner.company.id, { ticket: await ticketFor(owner), userId: other.user.id }))).toBe(
      'handshake 403',
    );

    // Stored only as a hash, for 30 seconds.
    const fresh = await ticketFor(owner);
    const stored = await client.send(new GetCommand({ TableName: tableName, Key: keys.realtimeTicket(hashOpaqueToken(fresh)) }));
    expect(JSON.stringify(stored.Item)).not.toContain(fresh);
    expect(Number(stored.Item?.expiresAt) - epochSeconds()).toBeLessThanOrEqual(30);
  });

  it('are refused for a session that has been signed out everywhere (revoked)', async () => {
    const owner = await signUp();
    await revokeSession(owner);
    const res = await callRoute(endpoints.realtimeTicket, { token: owner.tokens.accessToken });
    expect(res.status).toBe(401);
  });
});

async function revokeSession(account: Account) {
  const { client, tableName } = testTable();
  const sessionId = decodeJwt(account.tokens.accessToken).sid as string;
  await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.refreshFamily(sessionId),
      UpdateExpression: 'SET revoked = :true',
      ExpressionAttributeValues: { ':true': true },
    }),
  );
}

describe('presence', () => {
  it('gives a new socket the online users, and tells the company when a user comes and goes, several tabs being one presence', async () => {
    const owner = await signUp({ name: 'Ada Lovelace' });
    const colleague = await addTeamMember(owner, { name: 'Grace Hopper' });

    const ada = await openSocket(owner);
    await ada.beat();
    const first = await ada.next('presence_snapshot');
    expect(first.data.users).toEqual([{ id: owner.user.id, name: 'Ada Lovelace', since: expect.any(String) }]);

    const grace = await openSocket(colleague);
    const joined = await ada.next('user_joined');
    expect(joined.data).toEqual({ id: colleague.user.id, name: 'Grace Hopper', since: expect.any(String) });
    await grace.beat();
    const snapshot = await grace.next('presence_snapshot');
    expect(snapshot.data.users.map((u) => u.name)).toEqual(['Ada Lovelace', 'Grace Hopper']);

    // A second tab of Ada's is no news; closing one of two tabs neither.
    const adaSecondTab = await openSocket(owner);
    await ada.close();
    await grace.beat();
    expect(grace.log.filter((e) => e.type === 'user_joined' || e.type === 'user_left')).toEqual([]);

    await adaSecondTab.close();
    expect((await grace.next('user_left')).data).toEqual({ id: owner.user.id });
    await grace.close();
  });

  it('drops a socket that has not checked in for the lapse (11 minutes), and its user goes offline', async () => {
    const owner = await signUp();
    const colleague = await addTeamMember(owner);
    const quiet = await openSocket(owner);
    const watcher = await openSocket(colleague);
    await watcher.beat();

    const [entry] = (await connections(owner.company.id)).filter((c) => c.userId === owner.user.id);
    const { client, tableName } = testTable();
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.connection(owner.company.id, entry?.connectionId ?? ''),
        UpdateExpression: 'SET lastSeenAt = :then',
        ExpressionAttributeValues: { ':then': Date.now() - PRESENCE_LAPSE_SECONDS * 1000 - 1_000 },
      }),
    );
    // Any check-in of the company sweeps lapsed sockets.
    await watcher.beat();
    expect((await watcher.next('user_left')).data).toEqual({ id: owner.user.id });
    expect(await quiet.closed).toBe(1000);
    expect((await connections(owner.company.id)).map((c) => c.userId)).toEqual([colleague.user.id]);
    await watcher.close();
  });
});

describe('heartbeats', () => {
  const owner = () => signUp();
  async function entries(account: Account) {
    const [connection] = await connections(account.company.id);
    const { client, tableName } = testTable();
    const get = (Key: Record<string, string>) =>
      client.send(new GetCommand({ TableName: tableName, Key, ConsistentRead: true })).then((r) => r.Item ?? {});
    const id = connection?.connectionId ?? '';
    return { entry: await get(keys.connection(account.company.id, id)), owner: await get(keys.connectionOwner(id)) };
  }

  it('a beat API Gateway answers touches nothing: last seen and the frame count stay as the check-in left them', async () => {
    const account = await owner();
    const socket = await openSocket(account);
    await socket.beat();
    await socket.next('presence_snapshot');
    const checkedIn = await entries(account);
    expect(checkedIn.entry.lastSeenAt).toEqual(expect.any(Number));

    // Quiet beats (one-way) and answered ones: only the answered ones come back.
    for (let i = 0; i < 5; i++) {
      socket.send({
        action: socketQuietHeartbeat.routeKey,
        type: 'heartbeat',
        data: { userId: account.user.id, timestamp: new Date().toISOString() },
      });
      await socket.tick();
    }
    expect(socket.log.filter((e) => e.type === 'heartbeat_ack')).toHaveLength(6);
    expect(await entries(account)).toEqual(checkedIn);
    // No snapshot and no error either: no function saw them.
    expect(socket.log.filter((e) => e.type !== 'heartbeat_ack' && e.type !== 'presence_snapshot')).toEqual([]);

    // The next check-in records the socket as seen again.
    await socket.beat();
    const after = await entries(account);
    expect(after.entry.lastSeenAt).toBeGreaterThanOrEqual(checkedIn.entry.lastSeenAt as number);
    expect(after.owner.frameTat).not.toEqual(checkedIn.owner.frameTat);
    await socket.close();
  });

  it('a socket that still beats but stops checking in is swept after the lapse, as one whose tab died', async () => {
    const account = await owner();
    const colleague = await addTeamMember(account);
    const quiet = await openSocket(account);
    await quiet.beat();
    const watcher = await openSocket(colleague);
    await watcher.beat();
    const [entry] = (await connections(account.company.id)).filter((c) => c.userId === account.user.id);
    const { client, tableName } = testTable();
    // Its last check-in was a lapse ago; beats since then do not count.
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.connection(account.company.id, entry?.connectionId ?? ''),
        UpdateExpression: 'SET lastSeenAt = :then',
        ExpressionAttributeValues: { ':then': Date.now() - PRESENCE_LAPSE_SECONDS * 1000 - 1_000 },
      }),
    );
    await quiet.tick();
    await watcher.beat();
    expect((await watcher.next('user_left')).data).toEqual({ id: account.user.id });
    expect(await quiet.closed).toBe(1000);
    await watcher.close();
  });
});

describe('sessions', () => {
  it('a socket does not outlive its sign-in session: revoked, it is closed at its next check-in', async () => {
    const owner = await signUp();
    const colleague = await addTeamMember(owner);
    const socket = await openSocket(owner);
    const watcher = await openSocket(colleague);
    await revokeSession(owner);
    socket.send({ type: 'heartbeat', data: { userId: owner.user.id, timestamp: new Date().toISOString() } });
    expect(await socket.closed).toBe(1000);
    expect((await watcher.next('user_left')).data).toEqual({ id: owner.user.id });
    await watcher.close();
  });

  it('disconnectUser closes the sockets of one session, or of every session of the user', async () => {
    const owner = await signUp();
    const laptop = await openSocket(owner);
    const phoneLogin = await callRoute(endpoints.login, { body: { email: owner.email, password: owner.password } });
    const phone = await openSocket({ ...owner, tokens: phoneLogin.body.data.tokens });

    const laptopSession = decodeJwt(owner.tokens.accessToken).sid as string;
    expect(await disconnectUser(owner.company.id, owner.user.id, laptopSession)).toBe(1);
    expect(await laptop.closed).toBe(1000);
    await phone.beat();

    expect(await disconnectUser(owner.company.id, owner.user.id)).toBe(1);
    expect(await phone.closed).toBe(1000);
    expect(await connections(owner.company.id)).toEqual([]);
  });
});

describe('publishing', () => {
  it('reaches every socket of the company and never another company’s', async () => {
    const alice = await signUp({ companyName: 'Alice Co' });
    const bob = await signUp({ companyName: 'Bob Co' });
    const aliceSocket = await openSocket(alice);
    const bobSocket = await openSocket(bob);

    expect(await publish(alice.company.id, { type: 'call_ended', data: { callSid: 'c1' } })).toBe(1);
    expect((await aliceSocket.next('call_ended')).data).toEqual({ callSid: 'c1' });
    await bobSocket.beat();
    expect(bobSocket.log.some((e) => e.type === 'call_ended')).toBe(false);
    await Promise.all([aliceSocket.close(), bobSocket.close()]);
    await expect.poll(() => connections(alice.company.id)).toEqual([]);
  });

  it('sends a room’s events only to the sockets in it; rooms of another company cannot be joined', async () => {
    const owner = await signUp();
    const colleague = await addTeamMember(owner);
    const stranger = await signUp({ companyName: 'Elsewhere' });
    const conversationId = randomUUID();
    const { client, tableName } = testTable();
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.conversation(owner.company.id, conversationId), entity: 'CONVERSATION' },
      }),
    );
    const room = `conversation:${conversationId}`;
    const inRoom = await openSocket(owner);
    const outside = await openSocket(colleague);
    const intruder = await openSocket(stranger);

    inRoom.send({ type: 'join_room', data: { room } });
    expect((await inRoom.next('room_joined')).data).toEqual({ room });
    intruder.send({ type: 'join_room', data: { room } });
    expect((await intruder.next('error')).data.code).toBe('ROOM_NOT_FOUND');
    outside.send({ type: 'join_room', data: { room: `conversation:${randomUUID()}` } });
    expect((await outside.next('error')).data.code).toBe('ROOM_NOT_FOUND');

    expect(
      await publish(
        owner.company.id,
        { type: 'call_answered', data: { callSid: conversationId, answeredBy: owner.user.id } },
        { room },
      ),
    ).toBe(1);
    expect((await inRoom.next('call_answered')).data).toEqual({ callSid: conversationId, answeredBy: owner.user.id });
    await Promise.all([outside.beat(), intruder.beat()]);
    expect([...outside.log, ...intruder.log].some((e) => e.type === 'call_answered')).toBe(false);

    inRoom.send({ type: 'leave_room', data: { room } });
    await inRoom.next('room_left');
    expect(
      await publish(
        owner.company.id,
        { type: 'call_answered', data: { callSid: conversationId, answeredBy: owner.user.id } },
        { room },
      ),
    ).toBe(0);
    await Promise.all([inRoom.close(), outside.close(), intruder.close()]);
  });

  it('forgets a connection that answers 410 Gone, unless it may still be in $connect, without failing the publisher', async () => {
    const carol = await signUp();
    const { saveConnection } = await import('../../functions/realtime/connections');
    const { CONNECTING_GRACE_MS } = await import('../../functions/realtime/delivery');
    await saveConnection({
      connectionId: 'long-gone',
      companyId: carol.company.id,
      userId: carol.user.id,
      name: carol.user.name,
      sessionId: 's1',
      sessionExpiresAt: epochSeconds() + 60,
    });
    const event = { type: 'call_ended', data: { callSid: `CA${'0'.repeat(32)}` } } as const;
    // API Gateway answers 410 while $connect still runs: a connection just saved is kept.
    expect(await publish(carol.company.id, event)).toBe(0);
    expect(await connections(carol.company.id)).toHaveLength(1);

    vi.useFakeTimers({ now: Date.now() + CONNECTING_GRACE_MS + 1_000, toFake: ['Date'] });
    try {
      expect(await publish(carol.company.id, event)).toBe(0);
    } finally {
      vi.useRealTimers();
    }
    expect(await connections(carol.company.id)).toEqual([]);
    const { client, tableName } = testTable();
    const owner = await client.send(new GetCommand({ TableName: tableName, Key: keys.connectionOwner('long-gone') }));
    expect(owner.Item).toBeUndefined();
  });
});

describe('client messages', () => {
  it('answers each heartbeat, and a malformed message with an error event, keeping the socket open', async () => {
    const owner = await signUp();
    const socket = await openSocket(owner);
    await socket.beat();

    const refused = async (message: unknown) => {
      socket.send(message);
      return (await socket.next('error')).data;
    };
    expect(await refused('not json')).toEqual({ code: 'INVALID_MESSAGE', message: expect.stringContaining('JSON') });
    expect((await refused({ type: 'dance', data: {} })).code).toBe('UNKNOWN_TYPE');
    expect((await refused({ data: {} })).code).toBe('UNKNOWN_TYPE');
    expect(await refused({ type: 'heartbeat', data: { userId: owner.user.id, timestamp: 5 } })).toEqual({
      code: 'INVALID_MESSAGE',
      message: 'heartbeat: timestamp must be an ISO date',
    });
    expect((await refused({ type: 'join_room', data: { room: 7 } })).message).toBe('join_room: room must be text');
    expect((await refused({ type: 'accept_call', data: {} })).code).toBe('INVALID_MESSAGE');
    expect((await refused({ type: 'reject_call', data: { callSid: 'CA123' } })).message).toContain('callSid');

    // Over 32 KB: API Gateway passes messages of up to 128 KB sent in 32 KB frames, which the local
    // gateway refuses (its 32 KB limit applies to whole messages): it reaches $default as API Gateway sends it.
    const [entry] = await connections(owner.company.id);
    const { handler } = await import('../../functions/handlers/realtime/default');
    const big = JSON.stringify({ type: 'join_room', data: { room: 'x'.repeat(40 * 1024) } });
    const message = {
      requestContext: { connectionId: entry?.connectionId, routeKey: '$default', eventType: 'MESSAGE' },
      body: big,
    };
    expect(await handler(message as unknown as Parameters<typeof handler>[0])).toEqual({ statusCode: 200 });
    expect((await socket.next('error')).data.code).toBe('MESSAGE_TOO_LARGE');

    await socket.beat();
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);
    await socket.close();
  });

  it('accepts answers to calls of the own company only', async () => {
    const owner = await signUp();
    const other = await signUp({ companyName: 'Other Co' });
    const callSid = `CA${randomUUID().replaceAll('-', '')}`;
    const { client, tableName } = testTable();
    await client.send(new PutCommand({ TableName: tableName, Item: { ...keys.callSid(callSid), companyId: other.company.id } }));
    const socket = await openSocket(owner);
    socket.send({ type: 'accept_call', data: { callSid } });
    expect((await socket.next('error')).data).toEqual({ code: 'CALL_NOT_FOUND', message: `No call ${callSid} in your company` });
    socket.send({ type: 'reject_call', data: { callSid: `CA${'f'.repeat(32)}` } });
    expect((await socket.next('error')).data.code).toBe('CALL_NOT_FOUND');
    await socket.close();
  });
});
