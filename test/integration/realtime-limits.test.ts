import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway } from '../../local/gateway';
import { quietLogger } from '../../local/log';
import { freePort } from '../../local/ports';
import {
  MAX_SOCKETS_PER_USER,
  REALTIME_TICKET_LIMIT,
  SOCKET_FRAME_BURST,
  SOCKET_FRAMES_PER_SECOND,
} from '../../shared/constants';
import type { ServerEvent } from '../../shared/contract/realtime-events';
import { api, signUp, stack } from '../support/api';
import { openSocket, openSocketAt, type Socket, socketUrl, ticketFor } from '../support/realtime';

/** Issue 21: a socket's frames, a user's sockets and tickets are limited; `$connect` checks the origin secret. */

const leave = (n: number) => ({ type: 'leave_room', data: { room: `conversation:flood-${n}` } });
const answered = (log: ServerEvent[]) => log.filter((e) => e.type === 'room_left').length;
const refusedWith = (log: ServerEvent[], code: string) => log.filter((e) => e.type === 'error' && e.data.code === code).length;

const attempt = (url: string): Promise<Socket | string> => openSocketAt(url).catch((error: Error) => error.message);

describe('client frames', () => {
  it('a burst over the limit: the excess is refused RATE_LIMITED, the socket stays open and is served again', async () => {
    const owner = await signUp();
    const socket = await openSocket(owner);
    const burst = SOCKET_FRAME_BURST * 2;
    for (let n = 0; n < burst; n++) socket.send(leave(n));

    // A bound, not a goal: DynamoDB Local serialises a burst's conditional writes to one item, and on a
    // busy machine the last answers come after 15 s (each `$default` ends within its 29 s).
    await expect.poll(() => answered(socket.log) + refusedWith(socket.log, 'RATE_LIMITED'), { timeout: 60_000 }).toBe(burst);
    expect(answered(socket.log)).toBeGreaterThanOrEqual(SOCKET_FRAME_BURST);
    expect(refusedWith(socket.log, 'RATE_LIMITED')).toBeGreaterThan(0);
    expect(socket.log.find((e) => e.type === 'error')?.data).toEqual({
      code: 'RATE_LIMITED',
      message: expect.stringContaining('Too many messages'),
      retryAfterSeconds: expect.any(Number),
    });
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);

    // The bucket refills: a heartbeat is answered again.
    await expect
      .poll(async () => {
        const before = socket.log.length;
        socket.send({ type: 'heartbeat', data: { userId: owner.user.id, timestamp: new Date().toISOString() } });
        await expect.poll(() => socket.log.length).toBeGreaterThan(before);
        return socket.log.at(-1)?.type;
      })
      .toBe('heartbeat_ack');
    await socket.close();
  }, 120_000);

  it('a flood of 300 frames: the first burst is answered, the next refused RATE_LIMITED, then the socket is closed', async () => {
    const owner = await signUp();
    const socket = await openSocket(owner);
    const started = Date.now();
    for (let n = 0; n < 300; n++) socket.send(leave(n));

    await expect.poll(() => socket.ws.readyState, { timeout: 100_000 }).toBe(socket.ws.CLOSED);
    const seconds = (Date.now() - started) / 1000;
    // At most the burst and what the bucket refilled meanwhile; answers racing the close may be lost.
    const processed = answered(socket.log);
    expect(processed).toBeGreaterThan(0);
    expect(processed).toBeLessThanOrEqual(SOCKET_FRAME_BURST + Math.ceil(SOCKET_FRAMES_PER_SECOND * seconds));
    expect(socket.log.filter((e) => e.type === 'error' && e.data.code === 'CLOSED_FOR_FLOODING')).toEqual([
      {
        type: 'error',
        data: {
          code: 'CLOSED_FOR_FLOODING',
          message: expect.stringContaining('Too many messages'),
          retryAfterSeconds: expect.any(Number),
        },
      },
    ]);
  }, 120_000);
});

describe('sockets per user', () => {
  it(`at most ${MAX_SOCKETS_PER_USER}: the next ticket is refused with the reason, racing upgrades open no more`, async () => {
    const owner = await signUp();
    const url = (ticket: string) => socketUrl(owner.company.id, { ticket, userId: owner.user.id, companyId: owner.company.id });
    // Tickets taken while none is open, then all upgrades at once: the count holds at the upgrade too.
    const tickets = await Promise.all(Array.from({ length: MAX_SOCKETS_PER_USER + 2 }, () => ticketFor(owner)));
    const results = await Promise.all(tickets.map((t) => attempt(url(t))));
    const open = results.filter((r): r is Socket => typeof r !== 'string');
    expect(open).toHaveLength(MAX_SOCKETS_PER_USER);
    expect(results.filter((r) => typeof r === 'string')).toEqual(['handshake 429', 'handshake 429']);

    const refused = await api('/api/v1/realtime/ticket', { method: 'POST', token: owner.tokens.accessToken });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toEqual({
      code: 'TOO_MANY_CONNECTIONS',
      message: `You have ${MAX_SOCKETS_PER_USER} live connections open (tabs or windows). Close one to connect here.`,
      details: { retryAfterSeconds: expect.any(Number) },
    });

    // Closing one makes room for one (once its $disconnect has run).
    await open[0]?.close();
    let ticket = '';
    await expect
      .poll(async () => {
        const res = await api<{ ticket: string }>('/api/v1/realtime/ticket', { method: 'POST', token: owner.tokens.accessToken });
        ticket = res.body.data?.ticket ?? '';
        return res.status;
      })
      .toBe(201);
    const again = await attempt(url(ticket));
    expect(again).not.toBeTypeOf('string');
    for (const s of [...open.slice(1), again as Socket]) await s.close();
  });

  it(`tickets are throttled per user: ${REALTIME_TICKET_LIMIT} in five minutes`, async () => {
    const owner = await signUp();
    const ask = () => api('/api/v1/realtime/ticket', { method: 'POST', token: owner.tokens.accessToken });
    const statuses = [];
    for (let n = 0; n < REALTIME_TICKET_LIMIT; n++) statuses.push((await ask()).status);
    expect(new Set(statuses)).toEqual(new Set([201]));
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('TOO_MANY_REQUESTS');
    expect(refused.body.error.message).toMatch(/^Too many connection attempts\. Please try again in \d+ minutes?\.$/);
    // Another user is not affected.
    const other = await signUp();
    expect((await api('/api/v1/realtime/ticket', { method: 'POST', token: other.tokens.accessToken })).status).toBe(201);
  });
});

describe('$connect through the public execute-api endpoint (no CloudFront origin secret)', () => {
  let direct = '';
  let closeDirect: () => Promise<void> = async () => {};
  beforeAll(async () => {
    // The functions know the secret; the requests do not carry it, as on the execute-api URL in AWS.
    const { env } = stack();
    const port = await freePort();
    const gateway = createGateway({ log: quietLogger, environment: { ...(process.env as Record<string, string>), ...env } });
    await gateway.listen(port);
    direct = `127.0.0.1:${port}`;
    closeDirect = gateway.close;
  });
  afterAll(() => closeDirect());

  it('is refused 403 like every HTTP route, the ticket left unspent', async () => {
    const owner = await signUp();
    const http = await fetch(`http://${direct}/api/v1/me`, {
      headers: { authorization: `Bearer ${owner.tokens.accessToken}` },
    });
    expect(http.status).toBe(403);

    const ticket = await ticketFor(owner);
    const query = new URLSearchParams({ ticket, userId: owner.user.id, companyId: owner.company.id });
    expect(await attempt(`ws://${direct}/ws/company/${owner.company.id}?${query}`)).toBe('handshake 403');
    // Through CloudFront (the stack's gateway) the same ticket still opens the socket.
    const socket = await attempt(socketUrl(owner.company.id, Object.fromEntries(query)));
    expect(socket).not.toBeTypeOf('string');
    await (socket as Socket).close();
  });
});
