import { UserPlus, UsersRound } from 'lucide-react';
import { Alert } from '../../../components/alert';
import { Avatar } from '../../../components/avatar';
import { Button } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import { Skeleton } from '../../../components/skeleton';
import { Surface } from '../../../components/surface';
import { errorMessage } from '../../../lib/api-client';
import { plural } from '../../../lib/plural';
import { formatRelativeTime } from '../../../lib/relative-time';
import { useTeam } from '../api/team-api';
import { RoleBadge } from './role-badge';

/** SPEC §2 Settings: Team. Inviting and editing are not available yet: their buttons are disabled. */
export function TeamPage() {
  const team = useTeam();
  const users = team.data ?? [];

  return (
    <>
      <PageHeader
        title="Team"
        description="Everyone in your company who can sign in to Switchboard."
        actions={
          <Button disabled title="Inviting team members is coming soon">
            <UserPlus aria-hidden="true" className="size-4" />
            Invite Member
          </Button>
        }
      />
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
                        <Button
                          variant="secondary"
                          disabled
                          className="min-h-8 px-3 py-1"
                          aria-label={`Edit ${user.name}`}
                          title="Editing team members is coming soon"
                        >
                          Edit
                        </Button>
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
    </>
  );
}
