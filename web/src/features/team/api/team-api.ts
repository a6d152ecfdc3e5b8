import { useQuery } from '@tanstack/react-query';
import { usersQuery } from '../../../lib/settings-queries';

export function useTeam() {
  return useQuery(usersQuery());
}
