import * as z from 'zod/mini';
import { httpContract, type SocketContract } from './route';

/**
 * The socket authenticates once, at $connect, with a single-use ticket from `realtimeTicket` in the
 * query string: no access token or other long-lived credential ever appears in a URL.
 */
export const socketConnect = { kind: 'socket', routeKey: '$connect', auth: 'ticket' } as const satisfies SocketContract;
export const socketDisconnect = { kind: 'socket', routeKey: '$disconnect', auth: 'public' } as const satisfies SocketContract;
export const socketDefault = { kind: 'socket', routeKey: '$default', auth: 'public' } as const satisfies SocketContract;
/**
 * The WebSocket API's route selection expression (infra/constructs/realtime-api.ts; the local gateway
 * routes by it too): a message goes to the route named by its JSON `action`, else to `$default`.
 * Client messages carry `type`, not `action`, so every one of them reaches `$default`.
 */
export const REALTIME_ROUTE_SELECTION = '$request.body.action';

export const realtimeTicket = httpContract({
  method: 'POST',
  path: '/api/v1/realtime/ticket',
  auth: 'user',
  response: z.object({ ticket: z.string(), expiresAt: z.string() }),
});
export type RealtimeTicket = z.infer<typeof realtimeTicket.response>;

/** Rooms (`conversation:{id}`, later `call:{sid}`) narrow an event to the sockets that joined them. */
export const ROOM_KINDS = ['conversation'] as const;
export type RoomKind = (typeof ROOM_KINDS)[number];
const room = z
  .string({ error: 'room must be text' })
  .check(z.maxLength(200, 'room is too long'), z.regex(/^[a-z]+:[\w-]+$/, 'room must look like conversation:{id}'));
const callSid = z
  .string({ error: 'callSid must be text' })
  .check(z.regex(/^CA[0-9a-f]{32}$/, 'callSid must be a Twilio Call SID'));

/** Messages the client sends (docs/product.md §3), validated field by field. */
export const ClientMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('heartbeat'),
    // Only a check-in reaches a function; its `action` (absent) chose the route (realtime-events.ts: socketHeartbeat).
    data: z.object({
      userId: z.string({ error: 'userId must be text' }),
      timestamp: z.iso.datetime('timestamp must be an ISO date'),
    }),
  }),
  z.object({ type: z.literal('accept_call'), data: z.object({ callSid }) }),
  /** The tab's phone (Voice SDK device) registered or not: on every change and with each check-in (docs/product.md §10.5). */
  z.object({
    type: z.literal('device_state'),
    data: z.object({ registered: z.boolean({ error: 'registered must be true or false' }) }),
  }),
  z.object({ type: z.literal('reject_call'), data: z.object({ callSid }) }),
  z.object({ type: z.literal('join_room'), data: z.object({ room }) }),
  z.object({ type: z.literal('leave_room'), data: z.object({ room }) }),
]);
export type ClientMessage = z.infer<typeof ClientMessageSchema>;
export type ClientEventType = ClientMessage['type'];
export const CLIENT_EVENT_TYPES = [
  'heartbeat',
  'accept_call',
  'reject_call',
  'device_state',
  'join_room',
  'leave_room',
] as const satisfies readonly ClientEventType[];
