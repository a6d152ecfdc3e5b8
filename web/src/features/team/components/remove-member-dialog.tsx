import { MEMBER_REMOVAL_SWEEP_MINUTES } from '@shared/constants';
import type { TeamUser } from '@shared/contract/settings';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { SelectField } from '@/components/select-field';
import { errorMessage } from '@/lib/api-client';
import { plural } from '@/lib/plural';
import { assignedCountQuery, useRemoveUser } from '../api/team-api';

const UNASSIGNED = '';

/**
 * "Remove {name}?" with the remover's choice of where the member's conversations go: Unassigned (the
 * default) or another member (docs/product.md §2.16). It stays open, pending, until every pass of the
 * removal is done, and says how many conversations moved.
 */
export function RemoveMemberDialog({
  user,
  members,
  open,
  onOpenChange,
  onRemoved,
}: {
  user: TeamUser;
  /** The team as listed: everyone but the member being removed may take their conversations. */
  members: TeamUser[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onRemoved: (notice: string) => void;
}) {
  const remove = useRemoveUser();
  const [reassignTo, setReassignTo] = useState(UNASSIGNED);
  const assigned = useQuery({ ...assignedCountQuery(user.id), enabled: open });
  const others = members.filter((m) => m.id !== user.id).sort((a, b) => a.name.localeCompare(b.name));
  const target = others.find((m) => m.id === reassignTo);
  // Opened again: a fresh question, not the last answer's error or choice.
  const { reset } = remove;
  useEffect(() => {
    if (!open) return;
    reset();
    setReassignTo(UNASSIGNED);
  }, [open, reset]);

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Remove ${user.name}?`}
      confirmLabel="Remove"
      pendingLabel="Removing..."
      pending={remove.isPending}
      error={remove.isError ? errorMessage(remove.error, 'Failed to remove member') : null}
      onConfirm={() =>
        remove.mutate(
          { id: user.id, reassignTo: reassignTo || null },
          {
            onSuccess: ({ moved, complete }) => {
              const where = target ? `reassigned to ${target.name}` : 'now unassigned';
              const done =
                moved > 0
                  ? `${user.name} was removed from the team. ${plural(moved, 'conversation')} ${moved === 1 ? 'is' : 'are'} ${where}.`
                  : `${user.name} was removed from the team.`;
              onRemoved(
                complete
                  ? done
                  : `${done} The rest ${target ? `go to ${target.name}` : 'become unassigned'} within ${MEMBER_REMOVAL_SWEEP_MINUTES} minutes.`,
              );
            },
          },
        )
      }
      fields={
        <SelectField
          label="Their conversations"
          value={reassignTo}
          disabled={remove.isPending}
          onChange={(event) => setReassignTo(event.target.value)}
          options={[
            { value: UNASSIGNED, label: 'Leave unassigned' },
            ...others.map((member) => ({ value: member.id, label: `Reassign to ${member.name}` })),
          ]}
          hint={
            assigned.isSuccess
              ? assigned.data === 0
                ? `No conversations are assigned to ${user.name}.`
                : `${plural(assigned.data, 'conversation')} ${assigned.data === 1 ? 'is' : 'are'} assigned to ${user.name}.`
              : assigned.isError
                ? `Everything assigned to ${user.name} moves as chosen.`
                : 'Counting their conversations...'
          }
        />
      }
    >
      {user.name} is signed out at once and leaves every inbox; numbers routed to them become unassigned. Their past conversations
      and calls keep their name.
    </ConfirmDialog>
  );
}
