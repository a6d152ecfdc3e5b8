import { SOCKET_FLOOD_ALLOWANCE, SOCKET_FRAME_BURST, SOCKET_FRAMES_PER_SECOND } from '../../shared/constants';
import { CLIENT_EVENT_TYPES, type ClientMessage, ClientMessageSchema } from '../../shared/contract/realtime';
import { MAX_CLIENT_MESSAGE_BYTES, type RealtimeErrorCode } from '../../shared/contract/realtime-events';
import { markActive } from '../auth/accounts';
import { answerCall } from '../voice/call-answers';
import { beatRecordsActivity } from './activity';
import { addRoom, type NewConnection, recordHeartbeat, removeCompanyConnection, removeRoom } from './connections';
import { closeSocket, reply } from './delivery';
import { takeFrame } from './frame-limit';
import { reportDeviceState } from './phones';
import { announceDepartures, liveConnections, sendSnapshot } from './presence';
import { roomOfCompany } from './rooms';
import { socketSessionHolds } from './socket-session';

const KNOWN_TYPES = new Set<string>(CLIENT_EVENT_TYPES);

const refuse = (connectionId: string, code: RealtimeErrorCode, message: string, retryAfterSeconds?: number) =>
  reply(connectionId, { type: 'error', data: { code, message, ...(retryAfterSeconds ? { retryAfterSeconds } : {}) } });

const seconds = (n: number) => `${n} second${n === 1 ? '' : 's'}`;
const RATE = `at most ${SOCKET_FRAMES_PER_SECOND} a second, in bursts of up to ${SOCKET_FRAME_BURST}`;
/** How long a socket closed for flooding should wait before connecting again: its bucket full again. */
const FLOOD_RECONNECT_SECONDS = Math.ceil((SOCKET_FRAME_BURST + SOCKET_FLOOD_ALLOWANCE) / SOCKET_FRAMES_PER_SECOND);

/** What is wrong with a message, in words a developer reading the socket understands. */
function parse(raw: string): { message: ClientMessage } | { code: RealtimeErrorCode; error: string } {
  if (Buffer.byteLength(raw) > MAX_CLIENT_MESSAGE_BYTES) {
    return { code: 'MESSAGE_TOO_LARGE', error: `Messages must be at most ${MAX_CLIENT_MESSAGE_BYTES / 1024} KB` };
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { code: 'INVALID_MESSAGE', error: 'Messages must be JSON: {"type": ..., "data": ...}' };
  }
  const type = (json as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !KNOWN_TYPES.has(type)) {
    return { code: 'UNKNOWN_TYPE', error: `Unknown message type; expected one of ${CLIENT_EVENT_TYPES.join(', ')}` };
  }
  const result = ClientMessageSchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    return { code: 'INVALID_MESSAGE', error: `${type}: ${issue?.message ?? 'invalid data'}` };
  }
  return { message: result.data };
}

/**
 * One client message: counted against the socket's rate (functions/realtime/frame-limit.ts), validated,
 * then acted on for the socket's own user and company (never those the message names). Whatever is
 * wrong is answered with an `error` event; the socket stays open unless it keeps flooding.
 */
export async function handleClientMessage(connectionId: string, raw: string): Promise<void> {
  const taken = await takeFrame(connectionId);
  // The registry has forgotten the socket (swept as lapsed): it is closed.
  if (!taken) return closeSocket(connectionId);
  if (taken.verdict === 'limited') {
    const wait = Math.max(1, Math.ceil(taken.retryAfterMs / 1000));
    return refuse(connectionId, 'RATE_LIMITED', `Too many messages (${RATE}). Try again in ${seconds(wait)}.`, wait);
  }
  if (taken.verdict === 'closing') {
    if (!taken.first) return;
    // API Gateway's DeleteConnection has no close code (the browser sees 1000): the reason goes first.
    await refuse(
      connectionId,
      'CLOSED_FOR_FLOODING',
      `Too many messages (${RATE}): this connection is closed. Reconnect in ${seconds(FLOOD_RECONNECT_SECONDS)}.`,
      FLOOD_RECONNECT_SECONDS,
    );
    return closeSocket(connectionId);
  }
  const parsed = parse(raw);
  if ('error' in parsed) return refuse(connectionId, parsed.code, parsed.error);
  const { connection } = taken;
  const { message } = parsed;
  switch (message.type) {
    case 'heartbeat':
      return heartbeat(connection);
    case 'join_room': {
      const { room } = message.data;
      if (!(await roomOfCompany(connection.companyId, room)))
        return refuse(connectionId, 'ROOM_NOT_FOUND', `No room ${room} in your company`);
      if (!(await addRoom(connection, room)))
        return refuse(connectionId, 'TOO_MANY_ROOMS', 'Leave a room before joining another');
      return reply(connectionId, { type: 'room_joined', data: { room } });
    }
    case 'leave_room':
      await removeRoom(connection, message.data.room);
      return reply(connectionId, { type: 'room_left', data: { room: message.data.room } });
    case 'device_state':
      // Only a member who may still take the company's calls becomes reachable: a socket outliving its
      // session, its member's removal or its company is closed as at a check-in.
      if (message.data.registered && !(await socketSessionHolds(connection))) return endSocket(connection);
      await reportDeviceState(connection, message.data.registered);
      return reply(connectionId, { type: 'device_state_ack', data: { registered: message.data.registered } });
    case 'accept_call':
    case 'reject_call': {
      const { callSid } = message.data;
      const result = await answerCall(connection, callSid, message.type === 'accept_call' ? 'accept' : 'reject');
      if (result === 'NOT_FOUND') return refuse(connectionId, 'CALL_NOT_FOUND', `No call ${callSid} in your company`);
      if (result === 'NOT_RINGING') return refuse(connectionId, 'CALL_NOT_RINGING', `Call ${callSid} is not ringing for you`);
      return;
    }
  }
}

/**
 * A heartbeat keeps the socket registered and present, records the user's activity (once a minute),
 * and is where a socket that outlived its sign-in session (ended, signed out, revoked), its member's
 * removal or its company is dropped. The first one gets the presence snapshot.
 */
async function heartbeat(connection: NewConnection): Promise<void> {
  const now = Date.now();
  // Side by side where the order does not matter (a check-in's time is most of the socket's
  // Lambda bill); the sweep below must follow this socket's last-seen, or it could sweep the socket itself.
  const [open, beat] = await Promise.all([socketSessionHolds(connection), recordHeartbeat(connection, now)]);
  if (!open) return endSocket(connection);
  if (!beat) return closeSocket(connection.connectionId);
  const [live] = await Promise.all([
    liveConnections(connection.companyId),
    (async () => {
      // An open tab is someone using the app, so the Team page's Last Active stays current. Recorded
      // before the acknowledgement: a client holding it knows the beat is fully taken into account.
      if (beatRecordsActivity(beat, now)) await markActive(connection.companyId, connection.userId, { now: new Date(now) });
      await reply(connection.connectionId, { type: 'heartbeat_ack', data: { timestamp: new Date(now).toISOString() } });
    })(),
  ]);
  if (beat.first) await sendSnapshot(connection, live);
}

/** Drops a socket whose session no longer holds: it is forgotten, closed, and the others hear its member left. */
async function endSocket(connection: NewConnection): Promise<void> {
  await removeCompanyConnection(connection);
  await closeSocket(connection.connectionId);
  return announceDepartures(connection.companyId, [connection]);
}
