import type { MESSAGE_DIRECTIONS, MessageStatus } from './contract/conversations';

/**
 * Delivery statuses in the order they may be reached, one rule for the table and the web cache.
 * UNDELIVERED and FAILED are terminal and rank alike (the first to arrive stays); only DELIVERED beats
 * them, since a handset that got the text settles it. The table stores it on the message as
 * `statusRank`, so a condition expression keeps it moving forward; the web app keeps the higher of a
 * socket's and a read's copy (web/src/lib/conversation-cache.ts).
 */
export const STATUS_RANK: Record<MessageStatus, number> = {
  RECEIVED: 0,
  QUEUED: 1,
  SENDING: 2,
  SENT: 3,
  UNDELIVERED: 4,
  FAILED: 4,
  DELIVERED: 5,
};

interface Sendable {
  direction: (typeof MESSAGE_DIRECTIONS)[number];
  type?: 'SMS' | 'NOTE';
  status: MessageStatus;
  providerMessageId: string | null;
  resentAs?: string | undefined;
}

/** Failed, before or after Twilio took it (the list's marker, the thread's Failed). */
export const isFailedStatus = (status: MessageStatus) => status === 'FAILED' || status === 'UNDELIVERED';

/**
 * Whether a message can be sent again as itself (POST .../retry): an outbound one that failed before
 * Twilio took it (no MessageSid), so no late status of the first attempt can land on it.
 */
export function canRetry(message: Sendable): boolean {
  return message.direction === 'OUTBOUND' && message.status === 'FAILED' && !message.providerMessageId;
}

/**
 * Whether a message can be sent again as a new message with the same words (POST .../retry): an
 * outbound text that failed after Twilio took it (Twilio cannot send a message twice), not sent again yet.
 */
export function canResend(message: Sendable): boolean {
  return (
    message.direction === 'OUTBOUND' &&
    message.type !== 'NOTE' &&
    isFailedStatus(message.status) &&
    Boolean(message.providerMessageId) &&
    !message.resentAs
  );
}
