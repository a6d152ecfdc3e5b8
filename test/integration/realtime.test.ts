import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { keys } from '../../functions/lib/table';
import { signUp, stack } from '../support/api';
import { testTable } from '../support/table';

type Publish = typeof import('../../functions/realtime/publish').publish;
let publish: Publish;

beforeAll(async () => {
  // The publisher runs here as it runs in a Lambda: configured by environment, talking to the
  // gateway's @connections endpoint through the real ApiGatewayManagementApiClient.
  Object.assign(process.env, stack().env);
  ({ publish } = await import('../../functions/realtime/publish'));
});

function connect(query: string): Promise<{ ws: WebSocket; messages: unknown[]; next: () => Promise<unknown> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${stack().urls.websocket}?${query}`);
    const messages: unknown[] = [];
    const waiting: ((m: unknown) => void)[] = [];
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString());
      const waiter = waiting.shift();
      if (waiter) waiter(message);
      else messages.push(message);
    });
    ws.once('open', () =>
      resolve({
        ws,
        messages,
        next: () => (messages.length ? Promise.resolve(messages.shift()) : new Promise((r) => waiting.push(r))),
      }),
    );
    ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

async function connectionCount(companyId: string): Promise<number> {
  const { client, tableName } = testTable();
  const { PK, SKPrefix } = keys.connectionsOf(companyId);
  const { QueryCommand } = await import('@aws-sdk/lib-dynamodb');
  const res = await client.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      ExpressionAttributeValues: { ':pk': PK, ':sk': SKPrefix },
    }),
  );
  return res.Count ?? 0;
}

describe('realtime socket', () => {
  it('refuses a connection without a valid access token', async () => {
    await expect(connect('')).rejects.toThrow('handshake 401');
    await expect(connect('token=not-a-jwt')).rejects.toThrow('handshake 401');
  });

  it('pushes a published event to the company’s sockets only, and forgets closed ones', async () => {
    const alice = await signUp({ companyName: 'Alice Co' });
    const bob = await signUp({ companyName: 'Bob Co' });
    const aliceSocket = await connect(`token=${alice.tokens.accessToken}`);
    const bobSocket = await connect(`token=${bob.tokens.accessToken}`);
    expect(await connectionCount(alice.company.id)).toBe(1);

    const delivered = await publish(alice.company.id, { type: 'conversation_reopened', data: { conversationId: 'c1' } });
    expect(delivered).toBe(1);
    expect(await aliceSocket.next()).toEqual({ type: 'conversation_reopened', data: { conversationId: 'c1' } });

    // Bob's company hears nothing of Alice's: his socket gets only his own company's event.
    await publish(bob.company.id, { type: 'user_joined', data: { userId: bob.user.id } });
    expect(await bobSocket.next()).toEqual({ type: 'user_joined', data: { userId: bob.user.id } });

    const closed = new Promise((r) => aliceSocket.ws.once('close', r));
    aliceSocket.ws.close();
    await closed;
    await expect.poll(() => connectionCount(alice.company.id)).toBe(0);
    bobSocket.ws.close();
  });

  it('deletes a connection that answers 410 Gone, unless it may still be in $connect', async () => {
    const carol = await signUp();
    const { client, tableName } = testTable();
    const { saveConnection } = await import('../../functions/realtime/connections');
    const { CONNECTING_GRACE_MS } = await import('../../functions/realtime/publish');
    await saveConnection({ connectionId: 'long-gone', companyId: carol.company.id, userId: carol.user.id, sessionId: 's1' });
    expect(await connectionCount(carol.company.id)).toBe(1);

    // API Gateway answers 410 while $connect still runs: a connection just saved is kept.
    expect(await publish(carol.company.id, { type: 'user_left', data: {} })).toBe(0);
    expect(await connectionCount(carol.company.id)).toBe(1);

    vi.useFakeTimers({ now: Date.now() + CONNECTING_GRACE_MS + 1_000, toFake: ['Date'] });
    try {
      expect(await publish(carol.company.id, { type: 'user_left', data: {} })).toBe(0);
    } finally {
      vi.useRealTimers();
    }
    expect(await connectionCount(carol.company.id)).toBe(0);
    const owner = await client.send(new GetCommand({ TableName: tableName, Key: keys.connectionOwner('long-gone') }));
    expect(owner.Item).toBeUndefined();
  });

  it('keeps a socket open through a heartbeat', async () => {
    const dave = await signUp();
    const socket = await connect(`token=${dave.tokens.accessToken}`);
    socket.ws.send(JSON.stringify({ type: 'heartbeat', data: { userId: dave.user.id, timestamp: new Date().toISOString() } }));
    await publish(dave.company.id, { type: 'presence_snapshot', data: {} });
    expect(await socket.next()).toEqual({ type: 'presence_snapshot', data: {} });
    socket.ws.close();
  });
});
