/**
 * The realtime contract's plain part (no schemas, so the web app's first bundle stays free of zod):
 * the socket's path, the envelope, and every event the server pushes with its data.
 */

/** Public path of the socket (SPEC §7); CloudFront (and the local gateway) route it to the `ws` stage. */
export const socketPath = (companyId: string) => `/ws/company/${encodeURIComponent(companyId)}`;

/** Realtime envelope (SPEC §3): every message either way is `{type, data}`. */
export interface RealtimeEvent<T = unknown> {
  type: string;
  data: T;
}

/** API Gateway's WebSocket frame limit; a larger client message is refused with an `error` event. */
export const MAX_CLIENT_MESSAGE_BYTES = 32 * 1024;

/** A user with at least one live socket; several tabs of one user are one presence. */
export interface OnlineUser {
  id: string;
  name: string;
  /** When the user's oldest live socket opened (ISO). */
  since: string;
}

export type RealtimeErrorCode =
  | 'INVALID_MESSAGE'
  | 'UNKNOWN_TYPE'
  | 'MESSAGE_TOO_LARGE'
  | 'ROOM_NOT_FOUND'
  | 'TOO_MANY_ROOMS'
  | 'CALL_NOT_FOUND';

/**
 * Events the server pushes (SPEC §7 Realtime socket) and their data. The conversation and call events
 * carry the id of what changed; their features add fields as they need them.
 */
export interface ServerEvents {
  presence_snapshot: { users: OnlineUser[] };
  user_joined: OnlineUser;
  user_left: { id: string };
  heartbeat_ack: { timestamp: string };
  room_joined: { room: string };
  room_left: { room: string };
  error: { message: string; code: RealtimeErrorCode };
  incoming_call: { callSid: string };
  call_answered: { callSid: string };
  call_ended: { callSid: string };
  new_message: { conversationId: string };
  message_sent: { conversationId: string };
  message_status_updated: { conversationId: string };
  conversation_status_updated: { conversationId: string };
  conversation_reopened: { conversationId: string };
}
export type ServerEventType = keyof ServerEvents;
export type ServerEvent<K extends ServerEventType = ServerEventType> = {
  [T in K]: { type: T; data: ServerEvents[T] };
}[K];
