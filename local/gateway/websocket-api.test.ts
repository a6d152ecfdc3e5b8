import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { requestTime } from './events';
import { closeOf, messages, openSocket, startTestGateway, type TestGateway } from './test-gateway';

describe('the WebSocket API', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  it('closes a frame over 32 KB with 1009 and a binary frame with 1003', async () => {
    const big = await openSocket(gw.ws);
    big.ws.send('x'.repeat(32 * 1024 + 1));
    expect(await closeOf(big.ws)).toBe(1009);
    const binary = await openSocket(gw.ws);
    binary.ws.send(Buffer.from([1, 2, 3]));
    expect(await closeOf(binary.ws)).toBe(1003);
  });

  it('answers with a subprotocol only when $connect returns one', async () => {
    const chosen = await openSocket(`${gw.ws}?subprotocol=switchboard.v2`, ['switchboard.v1', 'switchboard.v2']);
    expect(chosen.ws.protocol).toBe('switchboard.v2');
    chosen.ws.close();
    // Asked for one, $connect returned none: API Gateway picks none, and the client fails the handshake.
    const refused = new WebSocket(gw.ws, ['switchboard.v1']);
    const [error] = (await once(refused, 'error').catch((e) => [e])) as [Error];
    expect(error.message).toBe('Server sent no subprotocol');
    // Asked for none: none.
    const plain = await openSocket(gw.ws);
    expect(plain.ws.protocol).toBe('');
    plain.ws.close();
  });

  it('refuses an upgrade to any path but /ws and its sub-paths with 404', async () => {
    const elsewhere = new WebSocket(gw.ws.replace(/\/ws$/, '/api/ws'));
    const [, res] = (await once(elsewhere, 'unexpected-response')) as [unknown, { statusCode: number }];
    expect(res.statusCode).toBe(404);
    elsewhere.on('error', () => {});
    elsewhere.terminate();
  });

  it("routes a message by its JSON body's action, and anything else to $default", async () => {
    const { ws } = await openSocket(gw.ws);
    const sent = ['{"action":"whoami"}', '{"action":"nobody"}', 'not json', '{"action":"$connect"}', '{"type":"heartbeat"}'];
    messages.length = 0;
    for (const body of sent) ws.send(body);
    await expect.poll(() => messages.length).toBe(sent.length);
    ws.close();
    const routeOf = (body: string) => messages.find((m) => m.body === body);
    expect(routeOf('{"action":"whoami"}')).toMatchObject({ handler: 'whoami', routeKey: 'whoami' });
    for (const body of sent.slice(1)) expect(routeOf(body)).toMatchObject({ handler: 'default', routeKey: '$default' });
  });

  it('answers a MOCK route from its template itself, invoking no function', async () => {
    const { ws } = await openSocket(gw.ws);
    messages.length = 0;
    const answer = new Promise<string>((resolve) => ws.once('message', (data) => resolve(data.toString())));
    const before = Date.now();
    ws.send('{"action":"ping","type":"heartbeat"}');
    const pong = JSON.parse(await answer);
    expect(pong).toEqual({ type: 'pong', at: requestTime(new Date(pong.ms)), ms: expect.any(Number), id: expect.any(String) });
    expect(pong.ms).toBeGreaterThanOrEqual(before);
    expect(pong.at).toMatch(/^\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/);
    // A message after it still reaches $default: the ping was answered without one.
    ws.send('{"type":"heartbeat"}');
    await expect.poll(() => messages.length).toBe(1);
    expect(messages[0]).toMatchObject({ handler: 'default', body: '{"type":"heartbeat"}' });
    ws.close();
  });

  it('takes a one-way MOCK route itself: nothing sent back, no function invoked', async () => {
    const { ws } = await openSocket(gw.ws);
    messages.length = 0;
    const frames: string[] = [];
    ws.on('message', (data) => frames.push(data.toString()));
    ws.send('{"action":"hush","type":"heartbeat"}');
    // Frames on one socket are taken in order: the ping's answer comes first, so the hush had none.
    ws.send('{"action":"ping","type":"heartbeat"}');
    await expect.poll(() => frames.length).toBe(1);
    expect(JSON.parse(frames[0] as string)).toMatchObject({ type: 'pong' });
    ws.send('{"type":"heartbeat"}');
    await expect.poll(() => messages.length).toBe(1);
    expect(messages).toEqual([{ handler: 'default', routeKey: '$default', body: '{"type":"heartbeat"}' }]);
    ws.close();
  });

  describe('socket limits', () => {
    it('closes an idle socket, and any socket at the end of its lifetime', async () => {
      const idle = await startTestGateway({ socketIdleMs: 100, socketLifetimeMs: 60_000 });
      const lifetime = await startTestGateway({ socketIdleMs: 60_000, socketLifetimeMs: 150 });
      try {
        const quiet = await openSocket(idle.ws);
        expect(await closeOf(quiet.ws)).toBe(1001);
        const busy = await openSocket(lifetime.ws);
        const chatter = setInterval(() => busy.ws.send('{"type":"heartbeat","data":{}}'), 20);
        expect(await closeOf(busy.ws)).toBe(1001);
        clearInterval(chatter);
      } finally {
        await idle.close();
        await lifetime.close();
      }
    });
  });
});
