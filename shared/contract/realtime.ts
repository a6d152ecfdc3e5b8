import type { SocketContract } from './route';

/** The socket authenticates once, at $connect, with the access token in the query string. */
export const socketConnect = { kind: 'socket', routeKey: '$connect', auth: 'user' } as const satisfies SocketContract;
export const socketDisconnect = { kind: 'socket', routeKey: '$disconnect', auth: 'public' } as const satisfies SocketContract;
export const socketDefault = { kind: 'socket', routeKey: '$default', auth: 'public' } as const satisfies SocketContract;

/** Realtime envelope (SPEC §3): every message either way is `{type, data}`. */
export interface RealtimeEvent<T = unknown> {
  type: string;
  data: T;
}

/** Events the client sends (SPEC §3). */
export const CLIENT_EVENT_TYPES = ['heartbeat', 'accept_call', 'reject_call', 'join_room', 'leave_room'] as const;
export type ClientEventType = (typeof CLIENT_EVENT_TYPES)[number];

/** Events the server pushes (SPEC §7 Realtime socket). */
export type ServerEventType =
  | 'connected'
  | 'incoming_call'
  | 'call_answered'
  | 'call_ended'
  | 'presence_snapshot'
  | 'user_joined'
  | 'user_left'
  | 'new_message'
  | 'message_sent'
  | 'message_status_updated'
  | 'conversation_status_updated'
  | 'conversation_reopened';
