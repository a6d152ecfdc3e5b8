import * as conversations from '@shared/contract/endpoints/conversations';
import * as team from '@shared/contract/endpoints/team';
import type { InvitableRole } from '@shared/contract/team';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BodyOf } from '@/lib/api-client';
import { conversationKeys } from '@/lib/conversation-cache';
import { api } from '@/lib/services';
import { settingsKeys, usersQuery } from '@/lib/settings-queries';

export type NewInvitation = BodyOf<typeof team.createInvitation>;

const invitationsKey = settingsKeys.invitations;

export const fetchInvitations = () => api.call(team.listInvitations).then((d) => d.invitations);
export const createInvitation = (invitation: NewInvitation) =>
  api.call(team.createInvitation, { body: invitation }).then((d) => d.invitation);
export const resendInvitation = (id: string) => api.call(team.resendInvitation, { params: { id } }).then((d) => d.invitation);
export const revokeInvitation = (id: string) => api.call(team.revokeInvitation, { params: { id } });
/** The member to remove, and who gets their conversations (null: nobody, they become unassigned). */
export interface Removal {
  id: string;
  reassignTo: string | null;
}

/**
 * Passes the Team page waits for; each moves conversations for a few seconds. The server's sweep
 * finishes what is left (docs/product.md: Removed members), so the remover is not held for long.
 */
const MAX_REMOVAL_PASSES = 10;

/**
 * Removes the member, then repeats the removal while the server says conversations are left to move
 * (a pass stops with time to answer); answers how many moved, and `complete` false when the rest is
 * left to the sweep. Leaving them unassigned sends no body.
 */
export async function removeUser({ id, reassignTo }: Removal): Promise<{ moved: number; complete: boolean }> {
  let moved = 0;
  for (let pass = 0; pass < MAX_REMOVAL_PASSES; pass++) {
    const { conversations } = await api.call(team.removeUser, {
      params: { id },
      ...(reassignTo ? { body: { reassignTo } } : {}),
    });
    moved += conversations.moved;
    if (conversations.complete) return { moved, complete: true };
  }
  return { moved, complete: false };
}

/** How many conversations (open and closed) are assigned to a member: the list's total, one item read. */
export const fetchAssignedCount = (id: string) =>
  api.call(conversations.listConversations, { query: { status: 'BOTH', assignee: id, limit: 1 } }).then((d) => d.total);

export const assignedCountQuery = (id: string) =>
  queryOptions({ queryKey: ['conversations', 'assigned-count', id] as const, queryFn: () => fetchAssignedCount(id) });
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
/** A removed user leaves every inbox, the numbers routed to them become unassigned, their conversations move. */
export const useRemoveUser = () =>
  useTeamMutation(removeUser, [settingsKeys.inboxes, settingsKeys.channels, conversationKeys.all]);
export const useChangeRole = () => useTeamMutation(changeRole);
