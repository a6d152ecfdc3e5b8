import type { AddressInfo } from 'node:net';
import { type ServerEvent, socketPath } from '@shared/contract/realtime-events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type WebSocket as ServerSocket, WebSocket, WebSocketServer } from 'ws';
import { createRealtimeClient, type RealtimeClient } from './realtime-client';

/** A real WebSocket server standing in for the gateway: it records who connected and what they sent. */
async function startServer() {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => wss.once('listening', resolve));
  const connections: { url: string; socket: ServerSocket; messages: unknown[] }[] = [];
  const waiters: (() => void)[] = [];
  wss.on('connection', (socket, request) => {
    const entry = { url: request.url ?? '', socket, messages: [] as unknown[] };
    socket.on('message', (data) => {
      entry.messages.push(JSON.parse(data.toString()));
      for (const w of waiters.splice(0)) w();
    });
    connections.push(entry);
    for (const w of waiters.splice(0)) w();
  });
  /** Resolves once the condition holds, re-checked on every connection and message. */
  const until = (condition: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => (condition() ? resolve() : waiters.push(check));
      check();
    });
  const base = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  return { wss, connections, until, base, close: () => new Promise((r) => wss.close(r)) };
}

// jsdom's WebSocket cannot dispatch events across its window and Node's: ws has the browser's API.
beforeEach(() => {
  vi.stubGlobal('WebSocket', WebSocket);
});

let stopClient: RealtimeClient['stop'] | undefined;
let stopServer: (() => Promise<unknown>) | undefined;
afterEach(async () => {
  stopClient?.();
  await stopServer?.();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const identity = { userId: 'u1', companyId: 'c1' };

describe('the realtime client', () => {
  it('connects with a fresh ticket, beats at once, delivers events, and reconnects by itself after the server closes it', async () => {
    const server = await startServer();
    stopServer = server.close;
    let tickets = 0;
    let reconnects = 0;
    const seen: ServerEvent[] = [];
    const client = createRealtimeClient({
      ticket: async () => `ticket-${++tickets}`,
      onEvent: (e) => seen.push(e),
      onReconnect: () => reconnects++,
      backoff: { initialMs: 5, factor: 2, maxMs: 20 },
      url: (who, ticket) => `${server.base}${socketPath(who.companyId)}?ticket=${ticket}&userId=${who.userId}`,
    });
    stopClient = client.stop;
    const states: string[] = [];
    client.onState(() => states.push(client.state()));
    const joined: string[] = [];
    client.subscribe('user_joined', (e) => joined.push(e.data.name));

    client.start(identity);
    await server.until(() => server.connections[0]?.messages.length === 1);
    const first = server.connections[0];
    expect(first?.url).toBe(`${socketPath('c1')}?ticket=ticket-1&userId=u1`);
    expect(first?.messages[0]).toEqual({ type: 'heartbeat', data: { userId: 'u1', timestamp: expect.any(String) } });
    expect(client.state()).toBe('connected');

    const event = { type: 'user_joined', data: { id: 'u2', name: 'Grace Hopper', since: '2026-01-01T00:00:00.000Z' } };
    first?.socket.send(JSON.stringify(event));
    first?.socket.close(1001);
    await server.until(() => server.connections[1]?.messages.length === 1);
    expect(server.connections[1]?.url).toContain('ticket=ticket-2');
    expect(joined).toEqual(['Grace Hopper']);
    expect(seen).toEqual([event]);
    expect(states).toEqual(['connected', 'disconnected', 'connected']);
    expect(reconnects).toBe(1);
  });

  it('beats every heartbeatMs; the first beat and one per check-in go to a function, the rest (the server silent) to the route API Gateway answers', async () => {
    const server = await startServer();
    stopServer = server.close;
    const client = createRealtimeClient({
      ticket: async () => 't',
      onEvent: () => {},
      onReconnect: () => {},
      heartbeatMs: 20,
      checkInMs: 60,
      answerAfterMs: 0,
      backoff: { initialMs: 1, factor: 2, maxMs: 4 },
      url: (_who, ticket) => `${server.base}/ws?ticket=${ticket}`,
    });
    stopClient = client.stop;
    // The clock stands still, so a beat that a busy machine delays never counts as a hidden tab's late one.
    vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    client.start(identity);
    await server.until(() => (server.connections[0]?.messages.length ?? 0) >= 7);
    const routes = (messages: unknown[] = []) => messages.slice(0, 7).map((m) => (m as { action?: string }).action ?? 'check-in');
    expect(routes(server.connections[0]?.messages)).toEqual([
      'check-in',
      'heartbeat',
      'heartbeat',
      'check-in',
      'heartbeat',
      'heartbeat',
      'check-in',
    ]);
    for (const m of server.connections[0]?.messages.slice(0, 7) ?? [])
      expect(m).toMatchObject({ type: 'heartbeat', data: { userId: 'u1', timestamp: expect.any(String) } });

    // A new socket starts over: its first beat checks in (the server answers it with the presence snapshot).
    server.connections[0]?.socket.close(1001);
    await server.until(() => (server.connections[1]?.messages.length ?? 0) >= 2);
    expect(routes(server.connections[1]?.messages).slice(0, 2)).toEqual(['check-in', 'heartbeat']);
  });

  it('checks in on a beat that comes half a check-in late, as a hidden tab’s throttled timers make it', async () => {
    const server = await startServer();
    stopServer = server.close;
    const client = createRealtimeClient({
      ticket: async () => 't',
      onEvent: () => {},
      onReconnect: () => {},
      heartbeatMs: 20,
      checkInMs: 1_000,
      answerAfterMs: 1,
      url: (_who, ticket) => `${server.base}/ws?ticket=${ticket}`,
    });
    stopClient = client.stop;
    vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    try {
      client.start(identity);
      await server.until(() => (server.connections[0]?.messages.length ?? 0) >= 3);
      const routes = () => (server.connections[0]?.messages ?? []).map((m) => (m as { action?: string }).action ?? 'check-in');
      // Far fewer beats than a check-in's count, but the time of one and a half has gone by.
      const before = routes().length;
      vi.setSystemTime(Date.now() + 1_500);
      await server.until(() => routes().length > before);
      expect(routes()[0]).toBe('check-in');
      expect(routes().slice(1, before)).not.toContain('check-in');
      expect(routes()[before]).toBe('check-in');
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks for no answer while the server has spoken lately: those beats go one-way', async () => {
    const server = await startServer();
    stopServer = server.close;
    // This server answers every beat at once, as API Gateway and the check-in do.
    server.wss.on('connection', (socket) =>
      socket.on('message', () => socket.send(JSON.stringify({ type: 'heartbeat_ack', data: { timestamp: 'now' } }))),
    );
    const client = createRealtimeClient({
      ticket: async () => 't',
      onEvent: () => {},
      onReconnect: () => {},
      heartbeatMs: 20,
      checkInMs: 60,
      answerAfterMs: 60_000,
      url: (_who, ticket) => `${server.base}/ws?ticket=${ticket}`,
    });
    stopClient = client.stop;
    vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    client.start(identity);
    await server.until(() => (server.connections[0]?.messages.length ?? 0) >= 4);
    const routes = (server.connections[0]?.messages ?? [])
      .slice(0, 4)
      .map((m) => (m as { action?: string }).action ?? 'check-in');
    expect(routes).toEqual(['check-in', 'quiet_heartbeat', 'quiet_heartbeat', 'check-in']);
  });

  it('keeps trying while no ticket can be had, and stops for good when told (sign-out)', async () => {
    const server = await startServer();
    stopServer = server.close;
    let attempts = 0;
    let allowed = false;
    const client = createRealtimeClient({
      ticket: async () => {
        attempts++;
        if (!allowed) throw new Error('offline');
        return 't';
      },
      onEvent: () => {},
      onReconnect: () => {},
      backoff: { initialMs: 1, factor: 2, maxMs: 4 },
      url: (_who, ticket) => `${server.base}/ws?ticket=${ticket}`,
    });
    stopClient = client.stop;
    client.start(identity);
    await expect.poll(() => attempts).toBeGreaterThan(3);
    allowed = true;
    await server.until(() => server.connections[0]?.messages.length === 1);
    expect(client.state()).toBe('connected');

    const closed = new Promise((resolve) => server.connections[0]?.socket.once('close', resolve));
    client.stop();
    expect(await closed).toBe(1000);
    expect(client.state()).toBe('disconnected');
    expect(client.send({ type: 'join_room', data: { room: 'conversation:1' } })).toBe(false);
  });

  it('waits as long as the server says before reconnecting: a socket closed for flooding, a refused ticket', async () => {
    const server = await startServer();
    stopServer = server.close;
    const asked: number[] = [];
    const HOLD_OFF_SECONDS = 0.15;
    const client = createRealtimeClient({
      ticket: async () => {
        asked.push(Date.now());
        // The third ask is refused as the ticket route refuses one: 429 with when to come back.
        if (asked.length === 3) throw Object.assign(new Error('Too many'), { details: { retryAfterSeconds: HOLD_OFF_SECONDS } });
        return `ticket-${asked.length}`;
      },
      onEvent: () => {},
      onReconnect: () => {},
      backoff: { initialMs: 5, factor: 1, maxMs: 5 },
      url: (who, ticket) => `${server.base}${socketPath(who.companyId)}?ticket=${ticket}`,
    });
    stopClient = client.stop;
    client.start(identity);
    await server.until(() => server.connections[0]?.messages.length === 1);
    const notice = { code: 'CLOSED_FOR_FLOODING', message: 'Too many messages', retryAfterSeconds: HOLD_OFF_SECONDS };
    server.connections[0]?.socket.send(JSON.stringify({ type: 'error', data: notice }));
    server.connections[0]?.socket.close(1000);
    await server.until(() => server.connections[1]?.messages.length === 1);
    server.connections[1]?.socket.close(1001);
    await server.until(() => server.connections[2]?.messages.length === 1);
    // Timers never fire early: the waits are at least what the server said, not the 5 ms back-off.
    const gaps = asked.slice(1).map((at, i) => at - (asked[i] ?? 0));
    expect(gaps[0]).toBeGreaterThanOrEqual(HOLD_OFF_SECONDS * 1000 - 1);
    expect(gaps[2]).toBeGreaterThanOrEqual(HOLD_OFF_SECONDS * 1000 - 1);
    expect(asked).toHaveLength(4);
  });
});
