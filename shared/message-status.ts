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

/**
 * Whether a message can be sent again (the thread's Retry, and POST .../retry): an outbound one that
 * failed before Twilio took it (no MessageSid), so no late status of the first attempt can land on it.
 */
export function canRetry(message: {
  direction: (typeof MESSAGE_DIRECTIONS)[number];
  status: MessageStatus;
  providerMessageId: string | null;
}): boolean {
  return message.direction === 'OUTBOUND' && message.status === 'FAILED' && !message.providerMessageId;
}
