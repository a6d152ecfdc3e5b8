import type { Message } from '@shared/contract/conversations';

export type DeliveryStatus = 'Sending' | 'Sent' | 'Delivered' | 'Failed';

/**
 * docs/product.md §4 outbound delivery display, from the provider's status: queued or sending = Sending, sent =
 * Sent, delivered = Delivered, failed, undelivered or message status FAILED = Failed, anything else =
 * Sent. Before Twilio has answered there is no provider status yet: the message's own status
 * (QUEUED) stands in for it, so a message still on its way never reads Sent.
 */
export function deliveryStatus(message: Pick<Message, 'status' | 'smsMessage'>): DeliveryStatus {
  if (message.status === 'FAILED') return 'Failed';
  switch ((message.smsMessage.providerStatus ?? message.status).toLowerCase()) {
    case 'queued':
    case 'sending':
      return 'Sending';
    case 'delivered':
      return 'Delivered';
    case 'failed':
    case 'undelivered':
      return 'Failed';
    default:
      return 'Sent';
  }
}

/** Why a message failed, as Twilio said it, with its code when there is one. */
export function failureReason(message: Pick<Message, 'smsMessage'>): string | null {
  const { errorMessage, errorCode } = message.smsMessage;
  if (!errorMessage && errorCode === null) return null;
  const text = errorMessage || 'The message could not be delivered.';
  return errorCode === null ? text : `${text} (error ${errorCode})`;
}
