import { Badge, type BadgeTone } from '../../../components/badge';

/** SPEC §6: OWNER purple, ADMIN blue, AGENT green, any other role grey. */
const TONES: Record<string, BadgeTone> = { OWNER: 'purple', ADMIN: 'blue', AGENT: 'green' };

export const roleTone = (role: string): BadgeTone => TONES[role] ?? 'neutral';

export function RoleBadge({ role }: { role: string }) {
  return <Badge tone={roleTone(role)}>{role}</Badge>;
}
