import { afterEach, describe, expect, it, vi } from 'vitest';
import { ORIGIN_SECRET_HEADER } from '../../functions/lib/config';
import {
  MAX_SOCKETS_PER_USER,
  REALTIME_TICKET_LIMIT,
  SOCKET_FLOOD_ALLOWANCE,
  SOCKET_FRAME_BURST,
  SOCKET_FRAMES_PER_SECOND,
} from '../../shared/constants';
import { type ServerEvent, socketPath } from '../../shared/contract/realtime-events';
import { type Account, callRoute, signUp } from '../support/api';
import { endpoints } from '../support/endpoints';
import { ownGateway } from '../support/own-gateway';
import { openSocketAt, type Socket, socketUrl, ticketFor } from '../support/realtime';

/**
 * A socket's frames, a user's sockets and tickets are limited. `$connect`, like every
 * HTTP route, is behind the origin authorizer.
 */

const leave = (n: number) => ({ type: 'leave_room', data: { room: `conversation:flood-${n}` } });
const answered = (log: ServerEvent[]) => log.filter((e) => e.type === 'room_left').length;
const refusedWith = (log: ServerEvent[], code: string) => log.filter((e) => e.type === 'error' && e.data.code === code).length;

const attempt = (url: string): Promise<Socket | string> => openSocketAt(url).catch((error: Error) => error.message);

/**
 * The frame limit is a token bucket refilled with time, and DynamoDB Local judges a burst's frames more
 * slowly on a busy machine, so with the real clock a burst can refill as it is judged. These tests run
 * the functions on a gateway of their own in this process with the clock stopped (`Date` only; timers
 * run): the bucket then holds exactly its burst, whatever the machine's speed, and moving the clock on
 * is how it refills.
 */
describe('client frames', () => {
  const gateway = ownGateway({ functions: 'in-process' });
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * Waits for the socket's events, not with expect.poll: under fake timers that moves the clock on
   * by its interval at every try. A bound, not a goal: a busy machine judges a burst slowly.
   */
  const until = (socket: Socket, done: () => boolean, timeoutMs = 60_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        socket.ws.off('message', later).off('close', check);
        resolve();
      };
      // The socket's own listener records an event first; look once it has.
      const later = () => setImmediate(check);
      const timer = setTimeout(() => {
        socket.ws.off('message', later).off('close', check);
        reject(new Error(`not reached within ${timeoutMs} ms; received ${JSON.stringify(socket.log)}`));
      }, timeoutMs);
      socket.ws.on('message', later).on('close', check);
      check();
    });

  const openFrozen = async (owner: Account) => {
    const ticket = await ticketFor(owner);
    const query = new URLSearchParams({ ticket, userId: owner.user.id, companyId: owner.company.id });
    const socket = await openSocketAt(`ws://${gateway.host}${socketPath(owner.company.id)}?${query}`, owner.user.id);
    vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    return socket;
  };

  it('a burst over the limit: the excess is refused RATE_LIMITED, the socket stays open and is served again', async () => {
    const owner = await signUp();
    const socket = await openFrozen(owner);
    const burst = SOCKET_FRAME_BURST * 2;
    for (let n = 0; n < burst; n++) socket.send(leave(n));

    await until(socket, () => answered(socket.log) + refusedWith(socket.log, 'RATE_LIMITED') === burst);
    expect(answered(socket.log)).toBe(SOCKET_FRAME_BURST);
    expect(refusedWith(socket.log, 'RATE_LIMITED')).toBe(burst - SOCKET_FRAME_BURST);
    expect(socket.log.find((e) => e.type === 'error')?.data).toEqual({
      code: 'RATE_LIMITED',
      message: expect.stringContaining('Too many messages'),
      retryAfterSeconds: expect.any(Number),
    });
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);

    // Served again once the clock has moved on by one refill interval.
    vi.setSystemTime(Date.now() + 1000 / SOCKET_FRAMES_PER_SECOND);
    await socket.beat();
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);
    await socket.close();
  }, 120_000);

  it('a flood of 300 frames: the first burst is answered, the next refused RATE_LIMITED, then the socket is closed', async () => {
    const owner = await signUp();
    const socket = await openFrozen(owner);
    for (let n = 0; n < 300; n++) socket.send(leave(n));

    await until(socket, () => socket.ws.readyState === socket.ws.CLOSED);
    // At most the burst is acted on and the flood allowance answered; answers racing the close may be lost.
    expect(answered(socket.log)).toBeLessThanOrEqual(SOCKET_FRAME_BURST);
    expect(refusedWith(socket.log, 'RATE_LIMITED')).toBeLessThanOrEqual(SOCKET_FLOOD_ALLOWANCE);
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

    const refused = await callRoute(endpoints.realtimeTicket, { token: owner.tokens.accessToken });
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
        const res = await callRoute(endpoints.realtimeTicket, { token: owner.tokens.accessToken });
        ticket = res.body.data?.ticket ?? '';
        return res.status;
      })
      .toBe(201);
    const again = await attempt(url(ticket));
    expect(again).not.toBeTypeOf('string');
    for (const s of [...open.slice(1), again as Socket]) await s.close();
  });
});

describe('tickets', () => {
  // The limit counts in fixed 5-minute windows: on the real clock a run that crosses a window's end
  // starts counting again (about 1 run in 100). A gateway of this file's own on a stopped clock keeps
  // the requests in one window.
  const gateway = ownGateway({ functions: 'in-process' });
  afterEach(() => {
    vi.useRealTimers();
  });

  it(`are throttled per user: ${REALTIME_TICKET_LIMIT} in five minutes`, async () => {
    const [owner, other] = await Promise.all([signUp(), signUp()]);
    const ask = (account: Account) => gateway.callRoute(endpoints.realtimeTicket, { token: account.tokens.accessToken });
    vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    const statuses = [];
    for (let n = 0; n < REALTIME_TICKET_LIMIT; n++) statuses.push((await ask(owner)).status);
    expect(new Set(statuses)).toEqual(new Set([201]));
    const refused = await ask(owner);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('TOO_MANY_REQUESTS');
    expect(refused.body.error.message).toMatch(/^Too many connection attempts\. Please try again in \d+ minutes?\.$/);
    // Another user is not affected.
    expect((await ask(other)).status).toBe(201);
  });
});

describe('$connect through the public execute-api endpoint (no CloudFront origin secret)', () => {
  // The functions know the secret; the requests do not carry it (or carry a guess), as on the execute-api URL in AWS.
  const direct = ownGateway({ withOriginSecret: false });

  it('is refused by API Gateway like every HTTP route (401; 403 for a guessed secret), the ticket left unspent', async () => {
    const owner = await signUp();
    const me = (headers: Record<string, string> = {}) =>
      fetch(`http://${direct.host}${endpoints.me.path}`, {
        headers: { authorization: `Bearer ${owner.tokens.accessToken}`, ...headers },
      });
    const missing = await me();
    expect({ status: missing.status, body: await missing.json() }).toEqual({ status: 401, body: { message: 'Unauthorized' } });
    const guessed = await me({ [ORIGIN_SECRET_HEADER]: 'a-guess' });
    expect({ status: guessed.status, body: await guessed.json() }).toEqual({ status: 403, body: { message: 'Forbidden' } });

    const ticket = await ticketFor(owner);
    const query = new URLSearchParams({ ticket, userId: owner.user.id, companyId: owner.company.id });
    expect(await attempt(`ws://${direct.host}${socketPath(owner.company.id)}?${query}`)).toBe('handshake 401');
    // Through CloudFront (the stack's gateway) the same ticket still opens the socket.
    const socket = await attempt(socketUrl(owner.company.id, Object.fromEntries(query)));
    expect(socket).not.toBeTypeOf('string');
    await (socket as Socket).close();
  });
});
