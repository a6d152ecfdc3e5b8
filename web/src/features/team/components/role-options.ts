import type { SelectOption } from '@/components/select-field';
import { roleLabel } from '@/lib/roles';

/** The roles an invitation or a role change can give: there is one owner, the person who signed up. */
export const ROLE_OPTIONS: SelectOption[] = [
  { value: 'AGENT', label: `${roleLabel('AGENT')}: answers calls and conversations` },
  { value: 'ADMIN', label: `${roleLabel('ADMIN')}: also manages settings and the team` },
];
