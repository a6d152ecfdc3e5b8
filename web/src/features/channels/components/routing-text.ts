import type { Channel } from '../../../../../shared/contract/settings';

/**
 * SPEC §2 Channels: 'Unassigned'; the target's name (shown after an arrow), falling back to 'Inbox'
 * or 'User'; or 'Unknown'.
 */
export function routingText(channel: Pick<Channel, 'routingType' | 'routingTarget'>): {
  text: string;
  routed: boolean;
} {
  switch (channel.routingType) {
    case 'UNASSIGNED':
      return { text: 'Unassigned', routed: false };
    case 'INBOX':
      return { text: channel.routingTarget?.name || 'Inbox', routed: true };
    case 'USER':
      return { text: channel.routingTarget?.name || 'User', routed: true };
    default:
      return { text: 'Unknown', routed: false };
  }
}
