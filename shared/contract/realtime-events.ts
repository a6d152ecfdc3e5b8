/**
 * The realtime contract's plain part (no schemas, so the web app's first bundle stays free of zod):
 * the socket's path, the envelope, and every event the server pushes with its data.
 */
import type { Call, CallStatus } from './calls';
import type { ChannelHealthBrief } from './channel-health';
import type { SharedContact } from './contacts';
import type { ConversationStatus, MemberRef, Message, SharedConversation } from './conversations';
import type { AnsweredSocketContract } from './route';
import type { TeamUser } from './settings';
import type { Invitation } from './team';

/** Public path of the socket (docs/product.md §7); CloudFront (and the local gateway) route it to the `ws` stage. */
export const socketPath = (companyId: string) => `/ws/company/${encodeURIComponent(companyId)}`;

/**
 * The heartbeats API Gateway answers itself: a message whose `action` is `heartbeat` takes
 * this route, a MOCK integration that answers `heartbeat_ack` from a mapping template, so it invokes no
 * function and reads and writes nothing (it only keeps CloudFront and API Gateway from closing a quiet
 * socket). A heartbeat without `action` reaches `$default`: the socket's check-in (its first beat, then
 * one every SOCKET_CHECK_IN_MS), which records it as present and is answered by a function.
 */
export const socketHeartbeat = {
  kind: 'socket-answered',
  routeKey: 'heartbeat',
  /** `$context.requestTime` is when API Gateway received the beat (`25/Nov/2026:10:59:00 +0000`). */
  answerTemplate: '{"type":"heartbeat_ack","data":{"timestamp":"$context.requestTime"}}',
} as const satisfies AnsweredSocketContract;

/**
 * A heartbeat nobody answers: a one-way MOCK route, so the beat costs one WebSocket message,
 * not two. The tab sends it while the server has sent something recently (SOCKET_ANSWER_AFTER_MS):
 * the socket is then known to be alive and CloudFront's origin timeout far away.
 */
export const socketQuietHeartbeat = {
  kind: 'socket-answered',
  routeKey: 'quiet_heartbeat',
} as const satisfies AnsweredSocketContract;

/** Realtime envelope (docs/product.md §3): every message either way is `{type, data}`. */
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
  | 'CALL_NOT_FOUND'
  | 'CALL_NOT_RINGING'
  /** The frame was over the socket's rate and dropped; `retryAfterSeconds` says when one passes again. */
  | 'RATE_LIMITED'
  /** The socket kept flooding and is being closed; connect again after `retryAfterSeconds`. */
  | 'CLOSED_FOR_FLOODING';

/**
 * Events the server pushes (docs/product.md §7 Realtime socket) and their data. The conversation and call events
 * carry the id of what changed; their features add fields as they need them.
 */
export interface ServerEvents {
  presence_snapshot: { users: OnlineUser[] };
  user_joined: OnlineUser;
  user_left: { id: string };
  heartbeat_ack: { timestamp: string };
  /** To the socket that sent `device_state`: taken into account (the member is reachable while `registered`). */
  device_state_ack: { registered: boolean };
  /** To the company: whether a member can take calls now (a tab of theirs has a registered phone). */
  phone_status_changed: { userId: string; phoneReady: boolean };
  room_joined: { room: string };
  room_left: { room: string };
  error: { message: string; code: RealtimeErrorCode; retryAfterSeconds?: number };
  /** To the users being rung: the caller, the number called, and the contact when one has the caller's number. */
  incoming_call: {
    callSid: string;
    from: string;
    to: string;
    contact: { id: string; name: string; phoneNumber: string } | null;
  };
  /** To the members who see the call (docs/product.md: Who sees what): one agent took it (the others' panels close). */
  call_answered: { callSid: string; answeredBy: string };
  /**
   * To the members who see the call: it is over, with its Call History status (the voice webhooks always send it)
   * and, for an outbound call refused before it rang, why (as Call History's `failureReason`).
   */
  call_ended: { callSid: string; callStatus?: CallStatus; failureReason?: string };
  /**
   * To the members who see the call: the customer was put on hold or brought back (POST
   * /api/v1/calls/{callId}/hold), so every tab of the agent shows it; `heldSince` is when this hold began.
   */
  call_held: { callSid: string; held: boolean; heldSince: string | null; holdSeconds: number };
  /**
   * To the company: its telephony provider was connected or disconnected (`changedAt`, ISO). Voice
   * tokens issued before then are signed with a key that no longer exists: every device starts again.
   */
  provider_changed: { providerId: string; connected: boolean; changedAt: string };
  /** An inbound message; the conversation as the list shows it after the message. */
  new_message: { conversationId: string; message: Message; conversation: SharedConversation };
  /** An outbound message stored (status QUEUED, or FAILED when Twilio refused it). */
  message_sent: { conversationId: string; message: Message; conversation: SharedConversation };
  message_status_updated: { conversationId: string; message: Message };
  conversation_status_updated: { conversationId: string; status: ConversationStatus; conversation: SharedConversation };
  /** A CLOSED conversation that an inbound message opened again (new_message follows). */
  conversation_reopened: { conversationId: string; conversation: SharedConversation };
  /** To the company: the conversation was assigned (or unassigned: assignee null) by `assignedBy`. */
  conversation_assigned: {
    conversationId: string;
    assignee: MemberRef | null;
    assignedBy: MemberRef;
    conversation: SharedConversation;
  };
  /** To the company: an internal note was added to the thread (message.type NOTE, its mentions resolved). */
  note_added: { conversationId: string; message: Message };
  /** To the reader's own sockets only: they read the conversation in some tab; its unread count is 0. */
  conversation_read: { conversationId: string };
  /** To the members who see the call (docs/product.md: Who sees what): a caller left a voicemail. */
  voicemail_received: { callId: string; call: Call };
  /** To the company: a channel's health status changed (a check found drift, or a repair put it right). */
  channel_health_changed: { channelId: string; health: ChannelHealthBrief };
  /** To the company: a contact was created or edited (as saved, without its counts), or deleted (contact null). */
  contact_changed: { contactId: string; contact: SharedContact | null };
  /**
   * To the company: an invitation was sent or sent again (`invitation` as the pending list shows it
   * now), or revoked, or withdrawn with its sender's removal or demotion (`invitation` null).
   */
  invitation_changed: { invitationId: string; invitation: Invitation | null };
  /** To the company: someone accepted an invitation and is now the member `user`. */
  invitation_accepted: { invitationId: string; user: TeamUser };
  /** To the company: a member was removed (their conversations follow as `conversation_assigned`). */
  member_removed: { userId: string };
  /**
   * To the members whose view of the company's conversations and calls changed (docs/product.md: Who
   * sees what): added to or removed from an inbox, a channel routed elsewhere, a new role, or a
   * conversation unassigned from them that they no longer see otherwise. Their tabs read the lists and
   * the unread count again, and a thread they no longer see closes with a notice.
   */
  visibility_changed: { reason: VisibilityChange };
}
export type VisibilityChange = 'INBOX_MEMBERSHIP' | 'ROUTING' | 'ROLE' | 'ASSIGNMENT';
export type ServerEventType = keyof ServerEvents;
export type ServerEvent<K extends ServerEventType = ServerEventType> = {
  [T in K]: { type: T; data: ServerEvents[T] };
}[K];
