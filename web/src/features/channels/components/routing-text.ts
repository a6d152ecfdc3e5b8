import type { Channel } from '@shared/contract/settings';

export interface RoutingText {
  text: string;
  /** Whether the channel goes somewhere (shown after an arrow). */
  routed: boolean;
  /** What kind of target the name is, when the name is known: an inbox and a person look alike otherwise. */
  target: 'INBOX' | 'USER' | null;
}

/**
 * docs/product.md §2 Channels: 'Unassigned'; the target's name (shown after an arrow), falling back to 'Inbox'
 * or 'User'; or 'Unknown'.
 */
export function routingText(channel: Pick<Channel, 'routingType' | 'routingTarget'>): RoutingText {
  switch (channel.routingType) {
    case 'UNASSIGNED':
      return { text: 'Unassigned', routed: false, target: null };
    case 'INBOX':
    case 'USER': {
      const name = channel.routingTarget?.name;
      const fallback = channel.routingType === 'INBOX' ? 'Inbox' : 'User';
      return { text: name || fallback, routed: true, target: name ? channel.routingType : null };
    }
    default:
      return { text: 'Unknown', routed: false, target: null };
  }
}
