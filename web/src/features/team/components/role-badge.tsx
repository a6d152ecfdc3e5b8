import { Badge, type BadgeTone } from '@/components/badge';
import { roleLabel } from '@/lib/roles';

/** docs/product.md §6: OWNER purple, ADMIN blue, AGENT green, any other role grey. */
const TONES: Record<string, BadgeTone> = { OWNER: 'purple', ADMIN: 'blue', AGENT: 'green' };

export const roleTone = (role: string): BadgeTone => TONES[role] ?? 'neutral';

/** The role's one label ('Owner'); a long unknown role wraps inside its column instead of running past it. */
export function RoleBadge({ role }: { role: string }) {
  return (
    <Badge tone={roleTone(role)} wrap>
      {roleLabel(role)}
    </Badge>
  );
}
