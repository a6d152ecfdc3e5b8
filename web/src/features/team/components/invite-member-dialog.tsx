import { createInvitation, GRANTABLE_ROLES, type InvitableRole, type Invitation } from '@shared/contract/team';
import { useRef, useState } from 'react';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { Dialog, DialogBody, DialogClose, DialogFooter, DialogForm } from '@/components/dialog';
import { SelectField } from '@/components/select-field';
import { TextField } from '@/components/text-field';
import { useSession } from '@/hooks/use-session';
import { errorMessage } from '@/lib/api-client';
import { type FieldErrors, focusFirstInvalid, schemaFieldErrors, serverFieldErrors } from '@/lib/form';
import { useInvite } from '../api/team-api';
import { ROLE_OPTIONS } from './role-options';

const FIELDS = ['email', 'role'] as const;
type Field = (typeof FIELDS)[number];

export function InviteMemberDialog({
  open,
  onOpenChange,
  onInvited,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onInvited: (invitation: Invitation) => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Invite Member"
      description="We e-mail them a link to join your company. It works once and expires in 7 days."
    >
      <InviteForm onInvited={onInvited} />
    </Dialog>
  );
}

function InviteForm({ onInvited }: { onInvited: (invitation: Invitation) => void }) {
  const invite = useInvite();
  // Only the owner grants ADMIN: an admin is offered the roles they may give, and told why.
  const granter = useSession()?.user.role ?? 'AGENT';
  const options = ROLE_OPTIONS.filter((o) => GRANTABLE_ROLES[granter].includes(o.value as InvitableRole));
  // No role is chosen for them: what a new member may manage is decided, never left to a default.
  const [values, setValues] = useState<{ email: string; role: InvitableRole | '' }>({ email: '', role: '' });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const refs = useRef<Partial<Record<Field, HTMLElement | null>>>({});

  const submit = () => {
    if (invite.isPending) return;
    const found = schemaFieldErrors(createInvitation.body, values, FIELDS);
    setErrors(found);
    if (Object.keys(found).length || !values.role) return focusFirstInvalid(FIELDS, found, refs.current);
    invite.mutate(
      { email: values.email.trim(), role: values.role },
      {
        onSuccess: onInvited,
        onError: (error) => {
          const fromServer = serverFieldErrors(error, FIELDS);
          setErrors(fromServer);
          focusFirstInvalid(FIELDS, fromServer, refs.current);
        },
      },
    );
  };

  const fieldError = Object.keys(errors).length > 0;
  return (
    <DialogForm onSubmit={submit} aria-label="Invite member">
      <DialogBody className="flex flex-col gap-4">
        {invite.isError && !fieldError && <Alert tone="error">{errorMessage(invite.error, 'Failed to send invitation')}</Alert>}
        <TextField
          ref={(el) => {
            refs.current.email = el;
          }}
          label="Email"
          type="email"
          autoComplete="off"
          required
          aria-required="true"
          placeholder="colleague@company.com"
          value={values.email}
          onChange={(e) => setValues((v) => ({ ...v, email: e.target.value }))}
          error={errors.email}
        />
        <SelectField
          ref={(el) => {
            refs.current.role = el;
          }}
          label="Role"
          required
          aria-required="true"
          placeholder="Choose a role..."
          options={options}
          hint={options.length < ROLE_OPTIONS.length ? 'Only the owner can invite an admin.' : undefined}
          value={values.role}
          onChange={(e) => setValues((v) => ({ ...v, role: e.target.value as InvitableRole }))}
          error={errors.role}
        />
      </DialogBody>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="secondary">Cancel</Button>
        </DialogClose>
        <Button type="submit" pending={invite.isPending} pendingLabel="Sending...">
          Send Invitation
        </Button>
      </DialogFooter>
    </DialogForm>
  );
}
