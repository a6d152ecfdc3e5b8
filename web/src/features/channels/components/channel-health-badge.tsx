import type { ChannelHealthStatus } from '@shared/contract/channel-health';
import { CircleCheck, CircleHelp, CircleX, CloudOff, KeyRound, TriangleAlert } from 'lucide-react';
import { Badge } from '@/components/badge';
import { HEALTH_WORDS } from '@/lib/channel-health';

const ICONS = {
  HEALTHY: CircleCheck,
  DRIFTED: TriangleAlert,
  NUMBER_GONE: CircleX,
  CREDENTIALS_REFUSED: KeyRound,
  PROVIDER_UNREACHABLE: CloudOff,
  UNCHECKED: CircleHelp,
} as const;

/** The health in a word and an icon, never by colour alone; "Health:" tells screen readers what the word is. */
export function ChannelHealthBadge({ status }: { status: ChannelHealthStatus }) {
  const { label, tone } = HEALTH_WORDS[status];
  const Icon = ICONS[status];
  return (
    <Badge tone={tone}>
      <Icon aria-hidden="true" className="size-3.5" />
      <span className="sr-only">Health: </span>
      {label}
    </Badge>
  );
}
