import type { Message } from '@shared/contract/conversations';

/**
 * Who sent an outbound text, as the viewer reads it: 'You' for their own, a colleague's name for
 * theirs, null for an inbound text or one stored before senders were kept (no guess: not 'You').
 */
export function senderName(message: Message, viewerId: string | undefined): string | null {
  if (message.direction !== 'OUTBOUND' || !message.sentBy) return null;
  return message.sentBy.id === viewerId ? 'You' : message.sentBy.name;
}

/** What a screen reader hears before the text. */
export function saidBy(message: Message, sender: string | null): string {
  if (message.direction === 'INBOUND') return 'They said:';
  return sender ? `${sender} said:` : 'Sent:';
}

/** The Direction row of Message details. */
export function directionText(message: Message, sender: string | null): string {
  if (message.direction === 'INBOUND') return 'Received';
  if (sender === 'You') return 'Sent by you';
  return sender ? `Sent by ${sender}` : 'Sent';
}
