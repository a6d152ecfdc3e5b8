import { SOCKET_ANSWER_AFTER_MS, SOCKET_CHECK_IN_MS, SOCKET_HEARTBEAT_MS } from '@shared/constants';
import type { ClientMessage } from '@shared/contract/realtime';
import {
  MAX_CLIENT_MESSAGE_BYTES,
  type ServerEvent,
  type ServerEventType,
  socketHeartbeat,
  socketPath,
  socketQuietHeartbeat,
} from '@shared/contract/realtime-events';
import { type Backoff, reconnectDelay } from './backoff';

export type ConnectionState = 'connected' | 'disconnected';

export interface SocketIdentity {
  userId: string;
  companyId: string;
}

export interface RealtimeClientOptions {
  /** A fresh single-use ticket (POST /realtime/ticket); asked for before every attempt. */
  ticket: () => Promise<string>;
  /** Every event, before the subscribers of its type: the cache mapping. */
  onEvent: (event: ServerEvent) => void;
  /** Runs after the socket is back following an unexpected close: what was missed must be refetched. */
  onReconnect: () => void;
  heartbeatMs?: number;
  /** How often a heartbeat is a check-in (reaches a function, records presence) rather than answered by API Gateway. */
  checkInMs?: number;
  /** A beat asks for an answer only when the server has sent nothing for this long (SOCKET_ANSWER_AFTER_MS). */
  answerAfterMs?: number;
  backoff?: Backoff;
  /** Where the socket connects; the page's own origin unless told otherwise (tests). */
  url?: (identity: SocketIdentity, ticket: string) => string;
}

type Listener = (event: ServerEvent) => void;

/** `wss://host/ws/company/{companyId}?ticket=…&userId=…&companyId=…` (docs/product.md §7), on the page's own origin. */
function socketUrl(identity: SocketIdentity, ticket: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const query = new URLSearchParams({ ticket, userId: identity.userId, companyId: identity.companyId });
  return `${scheme}://${window.location.host}${socketPath(identity.companyId)}?${query}`;
}

const retryAfterMs = (details: { retryAfterSeconds?: unknown } | undefined) =>
  typeof details?.retryAfterSeconds === 'number' ? details.retryAfterSeconds * 1000 : 0;

/**
 * The tab's one socket, shared by every feature (docs/product.md §4 Realtime socket): connected or disconnected;
 * after an unexpected close it reconnects by itself, with back-off and a fresh ticket, until stopped.
 */
export function createRealtimeClient(options: RealtimeClientOptions) {
  const heartbeatMs = options.heartbeatMs ?? SOCKET_HEARTBEAT_MS;
  const checkInMs = options.checkInMs ?? SOCKET_CHECK_IN_MS;
  const beatsPerCheckIn = Math.max(1, Math.round(checkInMs / heartbeatMs));
  const answerAfterMs = options.answerAfterMs ?? SOCKET_ANSWER_AFTER_MS;
  const url = options.url ?? socketUrl;
  let identity: SocketIdentity | null = null;
  let socket: WebSocket | null = null;
  let state: ConnectionState = 'disconnected';
  let attempt = 0;
  let hasConnected = false;
  // Bumped by stop(): an attempt that started before it must not open a socket after it.
  let generation = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let heartbeatTimer: ReturnType<typeof setInterval> | undefined;
  // Beats sent on the current socket since its last check-in (0: none yet). Its first beat, then every
  // beatsPerCheckIn-th, is a check-in; so is one that comes half a check-in late.
  let beats = 0;
  let checkedInAt = 0;
  // When the current socket last brought anything from the server (opened, an event, an answer).
  let heardAt = 0;
  const stateListeners = new Set<() => void>();
  const listeners = new Map<ServerEventType, Set<Listener>>();

  const setState = (next: ConnectionState) => {
    if (state === next) return;
    state = next;
    for (const l of stateListeners) l();
  };

  function send(message: ClientMessage & { action?: string }): boolean {
    const text = JSON.stringify(message);
    // The server would refuse it (and API Gateway close the socket on a frame above 32 KB).
    if (!socket || socket.readyState !== WebSocket.OPEN || new Blob([text]).size > MAX_CLIENT_MESSAGE_BYTES) return false;
    socket.send(text);
    return true;
  }

  /**
   * docs/product.md §7: a heartbeat every 30 s. The first and then one every SOCKET_CHECK_IN_MS go
   * without `action` to a function, which records the socket as present (docs/product.md: Realtime). The rest
   * API Gateway takes itself (no function, no table): answered (socketHeartbeat) when the server has
   * been silent for SOCKET_ANSWER_AFTER_MS, else one-way (socketQuietHeartbeat), one message instead of two.
   */
  const heartbeat = () => {
    if (!identity) return;
    const now = Date.now();
    // A hidden tab's timers may fire once a minute: counted, its check-ins would come every 10 minutes,
    // at the edge of the 11 minutes after which its presence and its phone lapse (docs/product.md §10.5).
    // Half a check-in late is taken as such (every 7½ minutes then): a visible tab's beats never are.
    const checkIn = beats === 0 || beats >= beatsPerCheckIn || now - checkedInAt >= checkInMs * 1.5;
    beats = checkIn ? 1 : beats + 1;
    if (checkIn) checkedInAt = now;
    const data = { userId: identity.userId, timestamp: new Date(now).toISOString() };
    if (checkIn) {
      send({ type: 'heartbeat', data });
      // The phone's state rides with each check-in: the server forgets a report it stops hearing (docs/product.md §10.5).
      if (phoneRegistered) send({ type: 'device_state', data: { registered: true } });
      return;
    }
    const route = Date.now() - heardAt >= answerAfterMs ? socketHeartbeat : socketQuietHeartbeat;
    send({ action: route.routeKey, type: 'heartbeat', data });
  };

  // What the tab's phone last reported (null: the tab has no phone), told again with every check-in.
  let phoneRegistered: boolean | null = null;

  // How long the server asked the next attempt to wait (a refused ticket, a socket closed for flooding).
  let holdOffMs = 0;

  function retry(current: number) {
    const delay = Math.max(reconnectDelay(attempt++, Math.random, options.backoff), holdOffMs);
    holdOffMs = 0;
    retryTimer = setTimeout(() => void open(current), delay);
  }

  async function open(current: number) {
    let ticket: string;
    try {
      ticket = await options.ticket();
    } catch (error) {
      // 429: too many tickets, or the user's sockets are all in use (other tabs): back off as told.
      holdOffMs = retryAfterMs((error as { details?: Record<string, unknown> } | null)?.details);
      if (current === generation) retry(current);
      return;
    }
    if (current !== generation || !identity) return;
    const ws = new WebSocket(url(identity, ticket));
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      beats = 0;
      heardAt = Date.now();
      setState('connected');
      // The first heartbeat at once: the server answers it with the presence snapshot.
      heartbeat();
      heartbeatTimer = setInterval(heartbeat, heartbeatMs);
      if (hasConnected) options.onReconnect();
      hasConnected = true;
    };
    ws.onmessage = (message) => {
      heardAt = Date.now();
      let event: ServerEvent;
      try {
        event = JSON.parse(String(message.data));
      } catch {
        return;
      }
      // The server is about to close this socket: come back only when it said (docs/product.md: Realtime).
      if (event.type === 'error' && event.data.code === 'CLOSED_FOR_FLOODING') holdOffMs = retryAfterMs(event.data);
      options.onEvent(event);
      for (const l of listeners.get(event.type) ?? []) l(event);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      clearInterval(heartbeatTimer);
      setState('disconnected');
      if (current === generation) retry(current);
    };
  }

  function stop() {
    generation++;
    holdOffMs = 0;
    clearTimeout(retryTimer);
    clearInterval(heartbeatTimer);
    const ws = socket;
    socket = null;
    ws?.close(1000, 'Signed out');
    identity = null;
    setState('disconnected');
  }

  return {
    /** Opens the socket for the signed-in user (again, when someone else signs in). */
    start(next: SocketIdentity) {
      if (identity && identity.userId === next.userId && identity.companyId === next.companyId) return;
      stop();
      identity = next;
      attempt = 0;
      hasConnected = false;
      void open(generation);
    },
    /** Deliberate disconnect (sign-out): no reconnect. */
    stop,
    send,
    /**
     * The tab's phone registered or not (null: no phone here any more). Sent at once on a change, and
     * with each check-in, so the server knows who can take a call (docs/product.md §10.5).
     */
    reportPhone(registered: boolean | null) {
      if (registered === phoneRegistered) return;
      const told = phoneRegistered;
      phoneRegistered = registered;
      // Nothing to take back when the server never heard this tab's phone registered.
      if (registered || told) send({ type: 'device_state', data: { registered: Boolean(registered) } });
    },
    state: () => state,
    onState(listener: () => void) {
      stateListeners.add(listener);
      return () => {
        stateListeners.delete(listener);
      };
    },
    subscribe<K extends ServerEventType>(type: K, listener: (event: ServerEvent<K>) => void) {
      const set = listeners.get(type) ?? new Set<Listener>();
      listeners.set(type, set);
      set.add(listener as Listener);
      return () => {
        set.delete(listener as Listener);
      };
    },
  };
}

export type RealtimeClient = ReturnType<typeof createRealtimeClient>;
