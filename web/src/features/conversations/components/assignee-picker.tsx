import type { MemberRef } from '@shared/contract/conversations';
import { ChevronDown } from 'lucide-react';
import { useId } from 'react';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { useAssignableMembers, useAssignConversation } from '../api/conversations-api';

const UNASSIGNED = '';

/**
 * The thread header's owner: a native select (the platform's keyboard and screen-reader
 * picker) of the members who may be assigned the conversation (`members`: those who see it, docs/product.md:
 * Who sees what) and Unassigned. While the change is on its way it shows the choice and is disabled; a
 * refusal says why and the select goes back to the owner as it is.
 */
export function AssigneePicker({
  conversationId,
  assignee,
  members: mayBeAssigned,
}: {
  conversationId: string;
  assignee: MemberRef | null;
  /** The conversation detail's `members`. */
  members: readonly MemberRef[];
}) {
  const id = useId();
  const errorId = useId();
  const members = useAssignableMembers(mayBeAssigned);
  const assign = useAssignConversation(conversationId);
  const options = [...(members.data?.offered ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  // An owner who cannot be picked is shown as the current value only: one the team list does not hold
  // (removed a moment ago, their conversations still moving: docs/product.md: Removed members), or one
  // who no longer sees it without the assignment (taken out of its inbox: docs/product.md: Who sees what).
  const unlisted = assignee && !options.some((m) => m.id === assignee.id) ? assignee : null;
  const gone = unlisted !== null && members.isSuccess;
  const removed = gone && !members.data?.activeIds.includes(unlisted.id);
  const value = assign.isPending ? (assign.variables ?? UNASSIGNED) : (assignee?.id ?? UNASSIGNED);

  return (
    <div className="flex min-w-44 flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-muted">
        Assignee
      </label>
      <div className="relative">
        <select
          id={id}
          value={value}
          disabled={assign.isPending}
          aria-busy={assign.isPending || undefined}
          aria-describedby={assign.isError ? errorId : undefined}
          onChange={(event) => assign.mutate(event.target.value === UNASSIGNED ? null : event.target.value)}
          className={cn(
            'min-h-9 w-full appearance-none rounded-lg border border-border bg-surface py-1.5 pr-9 pl-3 text-sm text-fg dark:[color-scheme:dark]',
            'disabled:cursor-not-allowed disabled:opacity-60',
          )}
        >
          <option value={UNASSIGNED}>Unassigned</option>
          {unlisted && (
            <option value={unlisted.id} disabled={gone}>
              {removed ? `${unlisted.name} (removed)` : gone ? `${unlisted.name} (not in this inbox)` : unlisted.name}
            </option>
          )}
          {options.map((member) => (
            <option key={member.id} value={member.id}>
              {member.name}
            </option>
          ))}
        </select>
        <ChevronDown
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted"
        />
      </div>
      {assign.isError && (
        <p id={errorId} role="alert" className="text-xs font-medium text-danger">
          {errorMessage(assign.error, 'Failed to assign conversation')}
        </p>
      )}
    </div>
  );
}
