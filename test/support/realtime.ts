import WebSocket from 'ws';
import { type ServerEvent, type ServerEventType, socketHeartbeat, socketPath } from '../../shared/contract/realtime-events';
import { type Account, callRoute, stack } from './api';
import { endpoints } from './endpoints';

/** How long a socket waits for an expected event before the test fails, saying what did arrive. */
const EVENT_TIMEOUT_MS = 15_000;

export async function ticketFor(account: Account): Promise<string> {
  const res = await callRoute(endpoints.realtimeTicket, { token: account.tokens.accessToken });
  if (res.status !== 201) throw new Error(`ticket failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.ticket;
}

/** The socket URL the web app opens (docs/product.md §7), on the gateway. */
export function socketUrl(companyId: string, query: Record<string, string>): string {
  const base = stack().urls.websocket.replace(/\/ws$/, '');
  return `${base}${socketPath(companyId)}?${new URLSearchParams(query)}`;
}

export interface Socket {
  ws: WebSocket;
  /** Every event received, in order. */
  log: ServerEvent[];
  /** Resolves with the next event of this type (after those already taken) that matches. */
  next: <K extends ServerEventType>(type: K, match?: (e: ServerEvent<K>) => boolean) => Promise<ServerEvent<K>>;
  send: (message: unknown) => void;
  /** Sends a heartbeat and waits for its acknowledgement: every event sent to this socket before it has arrived. */
  beat: () => Promise<void>;
  /** Sends a heartbeat API Gateway answers itself (socketHeartbeat) and waits for its acknowledgement. */
  tick: () => Promise<void>;
  /** Reports the tab's phone as the web app does (`device_state`) and waits until it is taken into account. */
  phone: (registered: boolean) => Promise<void>;
  /** Resolves with the close code once the socket is closed. */
  closed: Promise<number>;
  close: () => Promise<number>;
}

/** Opens a socket with a URL as the web app builds it; rejects with `handshake <status>` when refused. */
export function openSocketAt(url: string, userId = ''): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const log: ServerEvent[] = [];
    const taken = new Set<ServerEvent>();
    const waiters = new Set<() => void>();
    ws.on('message', (data) => {
      log.push(JSON.parse(data.toString()));
      for (const w of waiters) w();
    });
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    const next: Socket['next'] = (type, match) =>
      new Promise((res, rej) => {
        const check = () => {
          const found = log.find((e) => !taken.has(e) && e.type === type && (!match || match(e as ServerEvent<typeof type>))) as
            | ServerEvent<typeof type>
            | undefined;
          if (!found) return;
          taken.add(found as ServerEvent);
          waiters.delete(check);
          clearTimeout(timer);
          res(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          rej(new Error(`no ${type} within ${EVENT_TIMEOUT_MS} ms; received ${JSON.stringify(log)}`));
        }, EVENT_TIMEOUT_MS);
        waiters.add(check);
        check();
      });
    const send = (message: unknown) => ws.send(typeof message === 'string' ? message : JSON.stringify(message));
    const socket: Socket = {
      ws,
      log,
      next,
      send,
      beat: async () => {
        const timestamp = new Date().toISOString();
        send({ type: 'heartbeat', data: { userId, timestamp } });
        await next('heartbeat_ack');
      },
      tick: async () => {
        send({ action: socketHeartbeat.routeKey, type: 'heartbeat', data: { userId, timestamp: new Date().toISOString() } });
        await next('heartbeat_ack');
      },
      phone: async (registered) => {
        send({ type: 'device_state', data: { registered } });
        await next('device_state_ack', (e) => e.data.registered === registered);
      },
      closed,
      close: () => {
        ws.close();
        return closed;
      },
    };
    ws.once('open', () => resolve(socket));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

/** A signed-in user's socket, opened like the web app opens it: a fresh ticket, the company's path. */
export async function openSocket(account: Account): Promise<Socket> {
  const ticket = await ticketFor(account);
  return openSocketAt(
    socketUrl(account.company.id, { ticket, userId: account.user.id, companyId: account.company.id }),
    account.user.id,
  );
}
