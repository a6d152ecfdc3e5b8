import * as team from '@shared/contract/endpoints/team';
import type { InvitableRole } from '@shared/contract/team';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BodyOf } from '@/lib/api-client';
import { api } from '@/lib/services';
import { settingsKeys, usersQuery } from '@/lib/settings-queries';

export type NewInvitation = BodyOf<typeof team.createInvitation>;

const invitationsKey = ['invitations'] as const;

export const fetchInvitations = () => api.call(team.listInvitations).then((d) => d.invitations);
export const createInvitation = (invitation: NewInvitation) =>
  api.call(team.createInvitation, { body: invitation }).then((d) => d.invitation);
export const resendInvitation = (id: string) => api.call(team.resendInvitation, { params: { id } }).then((d) => d.invitation);
export const revokeInvitation = (id: string) => api.call(team.revokeInvitation, { params: { id } });
export const removeUser = (id: string) => api.call(team.removeUser, { params: { id } });
export const changeRole = ({ id, role }: { id: string; role: InvitableRole }) =>
  api.call(team.updateUserRole, { params: { id }, body: { role } });

export const invitationsQuery = () => queryOptions({ queryKey: invitationsKey, queryFn: fetchInvitations });

export function useTeam() {
  return useQuery(usersQuery());
}

export function useInvitations() {
  return useQuery(invitationsQuery());
}

/** A mutation that refreshes what it changed once it is done: the team, the invitations and more. */
function useTeamMutation<A, R>(mutationFn: (arg: A) => Promise<R>, alsoChanged: readonly (readonly string[])[] = []) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () =>
      Promise.all(
        [invitationsKey, settingsKeys.users, ...alsoChanged].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ),
  });
}

export const useInvite = () => useTeamMutation(createInvitation);
export const useResendInvitation = () => useTeamMutation(resendInvitation);
export const useRevokeInvitation = () => useTeamMutation(revokeInvitation);
/** A removed user leaves every inbox and the numbers routed to them become unassigned. */
export const useRemoveUser = () => useTeamMutation(removeUser, [settingsKeys.inboxes, settingsKeys.channels]);
export const useChangeRole = () => useTeamMutation(changeRole);
