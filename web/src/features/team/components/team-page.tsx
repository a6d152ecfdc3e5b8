import { createInvitation, updateUserRole } from '@shared/contract/endpoints/team';
import { allows } from '@shared/contract/route';
import type { TeamUser } from '@shared/contract/settings';
import { canRemove } from '@shared/contract/team';
import { UserMinus, UserPlus, UsersRound } from 'lucide-react';
import { useId, useState } from 'react';
import { Alert } from '@/components/alert';
import { Avatar } from '@/components/avatar';
import { Button } from '@/components/button';
import { EmptyState } from '@/components/empty-state';
import { IconButton } from '@/components/icon-button';
import { PageHeader } from '@/components/page-header';
import { PhoneStatus } from '@/components/phone-status';
import { Skeleton } from '@/components/skeleton';
import { Surface } from '@/components/surface';
import { useNow } from '@/hooks/use-now';
import { useSession } from '@/hooks/use-session';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { plural } from '@/lib/plural';
import { useOnlineUsers } from '@/lib/realtime/realtime';
import { formatRelativeTime } from '@/lib/relative-time';
import { useTeam } from '../api/team-api';
import { ChangeRoleDialog } from './change-role-dialog';
import { InviteMemberDialog } from './invite-member-dialog';
import { OnlineStatus } from './online-status';
import { PendingInvitations } from './pending-invitations';
import { RemoveMemberDialog } from './remove-member-dialog';
import { RoleBadge } from './role-badge';

type Open = { user: TeamUser; open: boolean } | null;

/** Below the small breakpoint a row is a grid: the person on top, role and last activity under it, actions beside. */
const ROW = 'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-1.5 max-sm:px-4 max-sm:py-3';
const USER_CELL = 'max-sm:col-span-2 max-sm:block sm:px-5 sm:py-3';
const ROLE_CELL = 'max-sm:col-start-1 max-sm:block sm:px-4 sm:py-3';
const ACTIVE_CELL = 'max-sm:col-start-1 max-sm:block max-sm:text-xs sm:px-4 sm:py-3';
const ACTIONS_CELL =
  'max-sm:col-start-2 max-sm:row-span-2 max-sm:row-start-2 max-sm:block max-sm:self-center sm:px-5 sm:py-3 sm:text-right';

/**
 * docs/product.md §2 Settings: Team, with invitations: the owner and admins invite, resend, revoke and remove
 * members; the owner changes roles. Agents see the page read-only.
 */
export function TeamPage() {
  const team = useTeam();
  const users = team.data ?? [];
  const me = useSession()?.user;
  // Who may is the routes' rule (their contracts' roles), asked here before offering the action.
  const canManage = allows(createInvitation, me?.role);
  const isOwner = allows(updateUserRole, me?.role);
  const online = new Set(useOnlineUsers().map((u) => u.id));
  // Last Active is counted in minutes: a tick every 30 s keeps "Just now" from outstaying its minute.
  const now = useNow(30_000);
  const [inviteOpen, setInviteOpen] = useState(false);
  const [editing, setEditing] = useState<Open>(null);
  const [removing, setRemoving] = useState<Open>(null);
  const [notice, setNotice] = useState('');
  const inviteReasonId = useId();
  const roleReasonId = useId();
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
            aria-describedby={canManage ? undefined : inviteReasonId}
            onClick={() => setInviteOpen(true)}
          >
            <UserPlus aria-hidden="true" className="size-4" />
            Invite Member
          </Button>
        }
      />
      {me && (!canManage || !isOwner) && (
        <p className="-mt-2 mb-4 text-sm text-muted">
          {!canManage && <span id={inviteReasonId}>Only the owner and admins can invite or remove members. </span>}
          {!isOwner && (
            <span id={roleReasonId}>
              {canManage ? 'Only the owner can change roles or remove admins.' : 'Only the owner can change roles.'}
            </span>
          )}
        </p>
      )}
      <div aria-live="polite" className={notice ? 'mb-4' : undefined}>
        {notice && <Alert tone="success">{notice}</Alert>}
      </div>
      {team.isError ? (
        <Alert tone="error">{errorMessage(team.error, 'Failed to load team members')}</Alert>
      ) : (
        <Surface className="overflow-hidden">
          {/*
            A table from the small breakpoint up; below it each row stacks (name and e-mail on a line of
            their own), so nothing is cut off at 360 px.
          */}
          <table className="w-full text-left text-sm max-sm:block sm:table-fixed">
            <caption className="sr-only">{team.isPending ? 'Loading team members...' : 'Team members'}</caption>
            <thead className="border-b border-border bg-surface-muted text-xs font-semibold tracking-wide text-muted uppercase max-sm:sr-only">
              <tr>
                <th scope="col" className="px-4 py-3 sm:px-5">
                  User
                </th>
                <th scope="col" className="w-28 px-4 py-3">
                  Role
                </th>
                <th scope="col" className="w-32 px-4 py-3">
                  Last Active
                </th>
                <th scope="col" className="w-28 px-4 py-3 text-right sm:px-5">
                  Actions
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border max-sm:block">
              {team.isPending ? (
                [0, 1, 2].map((i) => (
                  <tr key={i} className={ROW}>
                    <td className={USER_CELL}>
                      <div className="flex items-center gap-3">
                        <Skeleton className="size-9 rounded-full" />
                        <div className="flex flex-1 flex-col gap-1.5">
                          <Skeleton className="h-4 w-32 max-w-full" />
                          <Skeleton className="h-3 w-40 max-w-full" />
                        </div>
                      </div>
                    </td>
                    <td className={ROLE_CELL}>
                      <Skeleton className="h-5 w-14" />
                    </td>
                    <td className={ACTIVE_CELL}>
                      <Skeleton className="h-4 w-16" />
                    </td>
                    <td className={ACTIONS_CELL}>
                      <Skeleton className="ml-auto h-8 w-12" />
                    </td>
                  </tr>
                ))
              ) : users.length === 0 ? (
                <tr className="max-sm:block">
                  <td colSpan={4} className="max-sm:block">
                    <EmptyState icon={UsersRound} title="No team members found" />
                  </td>
                </tr>
              ) : (
                users.map((user) => {
                  const isOnline = online.has(user.id);
                  const editable = isOwner && actionable(user);
                  const ownReason = isOwner && !actionable(user);
                  const rowReasonId = `${roleReasonId}-${user.id}`;
                  return (
                    <tr key={user.id} className={ROW}>
                      <td className={USER_CELL}>
                        <div className="flex items-center gap-3">
                          <Avatar name={user.name} src={user.avatarUrl} />
                          <OnlineStatus online={isOnline} />
                          <div className="min-w-0">
                            <p className="font-semibold wrap-anywhere text-fg">{user.name}</p>
                            <p className="text-xs wrap-anywhere text-muted">{user.email}</p>
                            <PhoneStatus ready={user.phoneReady === true} />
                          </div>
                        </div>
                      </td>
                      <td className={ROLE_CELL}>
                        <RoleBadge role={user.role} />
                      </td>
                      <td className={cn(ACTIVE_CELL, isOnline ? 'font-medium text-success' : 'text-muted')}>
                        {isOnline ? (
                          'Online'
                        ) : (
                          <>
                            <span className="sm:hidden">Last active: </span>
                            {formatRelativeTime(user.lastActiveAt, now)}
                          </>
                        )}
                      </td>
                      <td className={ACTIONS_CELL}>
                        <div className="flex items-center justify-end gap-1">
                          <Button
                            variant="secondary"
                            disabled={!editable}
                            className="min-h-8 shrink-0 px-3 py-1"
                            aria-label={`Edit ${user.name}`}
                            aria-describedby={editable ? undefined : ownReason ? rowReasonId : roleReasonId}
                            onClick={() => setEditing({ user, open: true })}
                          >
                            Edit
                          </Button>
                          {ownReason && (
                            <span id={rowReasonId} className="sr-only">
                              {user.role === 'OWNER' ? "The owner's role cannot be changed." : 'You cannot change your own role.'}
                            </span>
                          )}
                          {me && canRemove(me.role, user.role) && actionable(user) && (
                            <IconButton
                              icon={UserMinus}
                              tone="danger"
                              label={`Remove ${user.name}`}
                              onClick={() => setRemoving({ user, open: true })}
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
        <RemoveMemberDialog
          key={removing.user.id}
          user={removing.user}
          members={users}
          open={removing.open}
          onOpenChange={keepUser(setRemoving)}
          onRemoved={(message) => {
            setRemoving(null);
            setNotice(message);
          }}
        />
      )}
    </>
  );
}
