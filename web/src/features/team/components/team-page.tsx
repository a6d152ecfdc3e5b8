import { UserMinus, UserPlus, UsersRound } from 'lucide-react';
import { useState } from 'react';
import type { TeamUser } from '../../../../../shared/contract/settings';
import { Alert } from '../../../components/alert';
import { Avatar } from '../../../components/avatar';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { IconButton } from '../../../components/icon-button';
import { PageHeader } from '../../../components/page-header';
import { Skeleton } from '../../../components/skeleton';
import { Surface } from '../../../components/surface';
import { useSession } from '../../../hooks/use-session';
import { errorMessage } from '../../../lib/api-client';
import { plural } from '../../../lib/plural';
import { formatRelativeTime } from '../../../lib/relative-time';
import { useRemoveUser, useTeam } from '../api/team-api';
import { ChangeRoleDialog } from './change-role-dialog';
import { InviteMemberDialog } from './invite-member-dialog';
import { PendingInvitations } from './pending-invitations';
import { RoleBadge } from './role-badge';

type Open = { user: TeamUser; open: boolean } | null;

/**
 * SPEC §2 Settings: Team, with invitations: the owner and admins invite, resend, revoke and remove
 * members; the owner changes roles. Agents see the page read-only.
 */
export function TeamPage() {
  const team = useTeam();
  const users = team.data ?? [];
  const me = useSession()?.user;
  const canManage = me?.role === 'OWNER' || me?.role === 'ADMIN';
  const isOwner = me?.role === 'OWNER';
  const remove = useRemoveUser();
  const [inviteOpen, setInviteOpen] = useState(false);
  const [editing, setEditing] = useState<Open>(null);
  const [removing, setRemoving] = useState<Open>(null);
  const [notice, setNotice] = useState('');
  const keepUser = (set: typeof setEditing) => (open: boolean) => set((s) => (s ? { ...s, open } : null));
  /** The owner and the signed-in person themselves are never edited or removed here. */
  const actionable = (user: TeamUser) => user.role !== 'OWNER' && user.id !== me?.id;

  return (
    <>
      <PageHeader
        title="Team"
        description="Everyone in your company who can sign in to Switchboard."
        actions={
          <Button
            disabled={!canManage}
            title={canManage ? undefined : 'Only the owner and admins can invite members'}
            onClick={() => setInviteOpen(true)}
          >
            <UserPlus aria-hidden="true" className="size-4" />
            Invite Member
          </Button>
        }
      />
      {!canManage && me && (
        <p className="-mt-2 mb-4 text-sm text-muted">Only the owner and admins can invite or remove members.</p>
      )}
      <div aria-live="polite" className={notice ? 'mb-4' : undefined}>
        {notice && <Alert tone="success">{notice}</Alert>}
      </div>
      {team.isError ? (
        <Alert tone="error">{errorMessage(team.error, 'Failed to load team members')}</Alert>
      ) : (
        <Surface className="overflow-hidden">
          <table className="w-full table-fixed text-left text-sm">
            <caption className="sr-only">{team.isPending ? 'Loading team members...' : 'Team members'}</caption>
            <thead className="border-b border-border bg-surface-muted text-xs font-semibold tracking-wide text-muted uppercase">
              <tr>
                <th scope="col" className="px-4 py-3 sm:px-5">
                  User
                </th>
                <th scope="col" className="w-24 px-2 py-3 sm:w-28 sm:px-4">
                  Role
                </th>
                <th scope="col" className="hidden w-32 px-4 py-3 sm:table-cell">
                  Last Active
                </th>
                <th scope="col" className="w-20 px-4 py-3 text-right sm:w-24 sm:px-5">
                  Actions
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {team.isPending ? (
                [0, 1, 2].map((i) => (
                  <tr key={i}>
                    <td className="px-4 py-3 sm:px-5">
                      <div className="flex items-center gap-3">
                        <Skeleton className="size-9 rounded-full" />
                        <div className="flex flex-1 flex-col gap-1.5">
                          <Skeleton className="h-4 w-32 max-w-full" />
                          <Skeleton className="h-3 w-40 max-w-full" />
                        </div>
                      </div>
                    </td>
                    <td className="px-2 py-3 sm:px-4">
                      <Skeleton className="h-5 w-14" />
                    </td>
                    <td className="hidden px-4 py-3 sm:table-cell">
                      <Skeleton className="h-4 w-16" />
                    </td>
                    <td className="px-4 py-3 sm:px-5">
                      <Skeleton className="ml-auto h-8 w-12" />
                    </td>
                  </tr>
                ))
              ) : users.length === 0 ? (
                <tr>
                  <td colSpan={4}>
                    <EmptyState icon={UsersRound} title="No team members found" />
                  </td>
                </tr>
              ) : (
                users.map((user) => {
                  const lastActive = formatRelativeTime(user.lastActiveAt);
                  return (
                    <tr key={user.id}>
                      <td className="px-4 py-3 sm:px-5">
                        <div className="flex items-center gap-3">
                          <Avatar name={user.name} src={user.avatarUrl} />
                          <div className="min-w-0">
                            <p className="truncate font-semibold text-fg">{user.name}</p>
                            <p className="truncate text-xs text-muted">{user.email}</p>
                            <p className="truncate text-xs text-muted sm:hidden">Last active: {lastActive}</p>
                          </div>
                        </div>
                      </td>
                      <td className="px-2 py-3 sm:px-4">
                        <RoleBadge role={user.role} />
                      </td>
                      <td className="hidden px-4 py-3 text-muted sm:table-cell">{lastActive}</td>
                      <td className="px-4 py-3 text-right sm:px-5">
                        <div className="flex items-center justify-end gap-1">
                          <Button
                            variant="secondary"
                            disabled={!isOwner || !actionable(user)}
                            className="min-h-8 px-3 py-1"
                            aria-label={`Edit ${user.name}`}
                            title={
                              isOwner
                                ? actionable(user)
                                  ? undefined
                                  : 'The owner and your own role cannot be changed'
                                : 'Only the owner can change roles'
                            }
                            onClick={() => setEditing({ user, open: true })}
                          >
                            Edit
                          </Button>
                          {canManage && actionable(user) && (
                            <IconButton
                              icon={UserMinus}
                              tone="danger"
                              label={`Remove ${user.name}`}
                              onClick={() => {
                                remove.reset();
                                setRemoving({ user, open: true });
                              }}
                            />
                          )}
                        </div>
                      </td>
                    </tr>
                  );
                })
              )}
            </tbody>
          </table>
          {team.isSuccess && users.length > 0 && (
            <p className="border-t border-border px-4 py-3 text-sm text-muted sm:px-5">
              Showing {plural(users.length, 'team member')}
            </p>
          )}
        </Surface>
      )}
      <PendingInvitations canManage={canManage} onNotice={setNotice} />

      <InviteMemberDialog
        open={inviteOpen}
        onOpenChange={setInviteOpen}
        onInvited={(invitation) => {
          setInviteOpen(false);
          setNotice(`Invitation sent to ${invitation.email}.`);
        }}
      />
      {editing && <ChangeRoleDialog user={editing.user} open={editing.open} onOpenChange={keepUser(setEditing)} />}
      {removing && (
        <ConfirmDialog
          open={removing.open}
          onOpenChange={keepUser(setRemoving)}
          title={`Remove ${removing.user.name}?`}
          confirmLabel="Remove"
          pendingLabel="Removing..."
          pending={remove.isPending}
          error={remove.isError ? errorMessage(remove.error, 'Failed to remove member') : null}
          onConfirm={() =>
            remove.mutate(removing.user.id, {
              onSuccess: () => {
                setRemoving(null);
                setNotice(`${removing.user.name} was removed from the team.`);
              },
            })
          }
        >
          {removing.user.name} is signed out at once and leaves every inbox; numbers routed to them become unassigned. Their past
          conversations and calls keep their name.
        </ConfirmDialog>
      )}
    </>
  );
}
