import type { SelectOption } from '../../../components/select-field';

/** The roles an invitation or a role change can give: there is one owner, the person who signed up. */
export const ROLE_OPTIONS: SelectOption[] = [
  { value: 'AGENT', label: 'Agent: answers calls and conversations' },
  { value: 'ADMIN', label: 'Admin: also manages settings and the team' },
];
