import type { TeamUser } from '@shared/contract/settings';
import type { InvitableRole } from '@shared/contract/team';
import { useState } from 'react';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { Dialog, DialogBody, DialogClose, DialogFooter, DialogForm } from '@/components/dialog';
import { SelectField } from '@/components/select-field';
import { errorMessage } from '@/lib/api-client';
import { useChangeRole } from '../api/team-api';
import { ROLE_OPTIONS } from './role-options';

/** The owner's Edit on a member: the role, Admin or Agent. */
export function ChangeRoleDialog({
  user,
  open,
  onOpenChange,
}: {
  user: TeamUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={`Edit ${user.name}`} description={user.email}>
      <ChangeRoleForm user={user} onSaved={() => onOpenChange(false)} />
    </Dialog>
  );
}

function ChangeRoleForm({ user, onSaved }: { user: TeamUser; onSaved: () => void }) {
  const change = useChangeRole();
  const [role, setRole] = useState<InvitableRole>(user.role === 'ADMIN' ? 'ADMIN' : 'AGENT');
  return (
    <DialogForm
      onSubmit={() => {
        if (!change.isPending) change.mutate({ id: user.id, role }, { onSuccess: onSaved });
      }}
      aria-label={`Edit ${user.name}`}
    >
      <DialogBody className="flex flex-col gap-4">
        {change.isError && <Alert tone="error">{errorMessage(change.error, 'Failed to change role')}</Alert>}
        <SelectField
          label="Role"
          placeholder="Choose a role..."
          options={ROLE_OPTIONS}
          value={role}
          onChange={(e) => setRole(e.target.value as InvitableRole)}
          hint="Takes effect on their next action; they stay signed in."
        />
      </DialogBody>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="secondary">Cancel</Button>
        </DialogClose>
        <Button type="submit" pending={change.isPending} pendingLabel="Saving..." disabled={role === user.role}>
          Save Role
        </Button>
      </DialogFooter>
    </DialogForm>
  );
}
