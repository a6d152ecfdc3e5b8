import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InvitableRole, Invitation } from '../../../../../shared/contract/team';
import { api } from '../../../lib/services';
import { settingsKeys, usersQuery } from '../../../lib/settings-queries';

export interface NewInvitation {
  email: string;
  role: InvitableRole;
}

const invitationsKey = ['invitations'] as const;
const invitationPath = (id: string) => `/invitations/${encodeURIComponent(id)}`;
const userPath = (id: string) => `/users/${encodeURIComponent(id)}`;

export const fetchInvitations = () => api.get<{ invitations: Invitation[] }>('/invitations').then((d) => d.invitations);
export const createInvitation = (invitation: NewInvitation) =>
  api.post<{ invitation: Invitation }>('/invitations', invitation).then((d) => d.invitation);
export const resendInvitation = (id: string) =>
  api.post<{ invitation: Invitation }>(`${invitationPath(id)}/resend`, undefined).then((d) => d.invitation);
export const revokeInvitation = (id: string) => api.request<{ invitation: Invitation }>(invitationPath(id), { method: 'DELETE' });
export const removeUser = (id: string) => api.request<{ user: { id: string } }>(userPath(id), { method: 'DELETE' });
export const changeRole = ({ id, role }: { id: string; role: InvitableRole }) =>
  api.request<{ user: { id: string; role: InvitableRole } }>(userPath(id), { method: 'PATCH', body: { role } });

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
