import type { Inbox, InboxMember } from '@shared/contract/settings';
import { Plus, UserMinus } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Alert } from '@/components/alert';
import { Avatar } from '@/components/avatar';
import { Button } from '@/components/button';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Dialog, DialogBody, DialogClose, DialogFooter } from '@/components/dialog';
import { IconButton } from '@/components/icon-button';
import { PhoneStatus } from '@/components/phone-status';
import { Spinner } from '@/components/spinner';
import { useCanManage } from '@/hooks/use-can-manage';
import { errorMessage } from '@/lib/api-client';
import { useAddMember, useInbox, useRemoveMember, useUsers } from '../api/inboxes-api';

/** docs/product.md §2 Manage Members dialog. */
export function ManageMembersDialog({
  inbox,
  open,
  onOpenChange,
}: {
  inbox: Pick<Inbox, 'id' | 'name'>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Manage Members"
      description={
        <>
          Members of <span className="font-semibold text-fg">{inbox.name}</span> answer its calls and messages.
        </>
      }
    >
      <Members inbox={inbox} />
      <DialogFooter>
        <DialogClose asChild>
          <Button>Done</Button>
        </DialogClose>
      </DialogFooter>
    </Dialog>
  );
}

function Members({ inbox }: { inbox: Pick<Inbox, 'id' | 'name'> }) {
  const detail = useInbox(inbox.id);
  const users = useUsers();
  const add = useAddMember(inbox.id);
  const remove = useRemoveMember(inbox.id);
  const [removing, setRemoving] = useState<{ member: InboxMember; open: boolean } | null>(null);
  // Everyone sees who answers the inbox; only managers change it.
  const canManage = useCanManage();

  if (detail.isPending) {
    return (
      <DialogBody>
        <p role="status" className="flex items-center justify-center gap-2 py-10 text-sm text-muted">
          <Spinner className="size-4" />
          Loading members...
        </p>
      </DialogBody>
    );
  }
  if (detail.isError) {
    return (
      <DialogBody className="flex flex-col items-start gap-3">
        <Alert tone="error">{errorMessage(detail.error, 'Failed to load members')}</Alert>
        <Button variant="secondary" pending={detail.isFetching} pendingLabel="Retrying..." onClick={() => detail.refetch()}>
          Try again
        </Button>
      </DialogBody>
    );
  }

  const members = detail.data.members;
  const memberIds = new Set(members.map((m) => m.userId));
  const available = (users.data ?? []).filter((u) => !memberIds.has(u.id));
  const addingId = add.isPending ? add.variables : undefined;

  return (
    <DialogBody className="flex flex-col gap-6">
      {add.isError && <Alert tone="error">{errorMessage(add.error, 'Failed to add member')}</Alert>}

      <Section title={`Current Members (${members.length})`}>
        {members.length === 0 ? (
          <Empty>No members yet. Add users to this inbox.</Empty>
        ) : (
          <ul className="divide-y divide-border rounded-lg border border-border">
            {members.map((member) => (
              <Person
                key={member.id}
                name={member.user.name}
                email={member.user.email}
                status={<PhoneStatus ready={member.phoneReady === true} />}
              >
                {canManage && (
                  <IconButton
                    icon={UserMinus}
                    tone="danger"
                    label={`Remove ${member.user.name}`}
                    onClick={() => {
                      remove.reset();
                      setRemoving({ member, open: true });
                    }}
                  />
                )}
              </Person>
            ))}
          </ul>
        )}
      </Section>

      {canManage && (
        <Section title={users.isSuccess ? `Add Members (${available.length} available)` : 'Add Members'}>
          {users.isPending ? (
            <p role="status" className="flex items-center gap-2 text-sm text-muted">
              <Spinner className="size-4" />
              Loading users...
            </p>
          ) : users.isError ? (
            <Alert tone="error">{errorMessage(users.error, 'Failed to load team members')}</Alert>
          ) : available.length === 0 ? (
            <Empty>All users are already members of this inbox.</Empty>
          ) : (
            <ul className="divide-y divide-border rounded-lg border border-border">
              {available.map((user) => (
                <Person key={user.id} name={user.name} email={user.email} avatarUrl={user.avatarUrl}>
                  <Button
                    variant="secondary"
                    className="min-h-9 px-3"
                    aria-label={`Add ${user.name}`}
                    pending={addingId === user.id}
                    pendingLabel="Adding..."
                    disabled={add.isPending}
                    onClick={() => add.mutate(user.id)}
                  >
                    <Plus aria-hidden="true" className="size-4" />
                    Add
                  </Button>
                </Person>
              ))}
            </ul>
          )}
        </Section>
      )}

      {removing && (
        <ConfirmDialog
          open={removing.open}
          onOpenChange={(open) => setRemoving((r) => (r ? { ...r, open } : null))}
          title={`Remove ${removing.member.user.name}?`}
          confirmLabel="Remove"
          pendingLabel="Removing..."
          pending={remove.isPending}
          error={remove.isError ? errorMessage(remove.error, 'Failed to remove member') : null}
          onConfirm={() =>
            remove.mutate(removing.member.userId, { onSuccess: () => setRemoving((r) => (r ? { ...r, open: false } : null)) })
          }
        >
          Are you sure you want to remove this member from the inbox?
        </ConfirmDialog>
      )}
    </DialogBody>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title}>
      <h3 className="mb-2 text-sm font-semibold text-fg">{title}</h3>
      {children}
    </section>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return <p className="rounded-lg border border-dashed border-border px-4 py-5 text-center text-sm text-muted">{children}</p>;
}

function Person({
  name,
  email,
  avatarUrl,
  children,
  status,
}: {
  name: string;
  email: string;
  avatarUrl?: string | null;
  children: ReactNode;
  /** A line under the address (a member's phone status). */
  status?: ReactNode;
}) {
  return (
    <li className="flex items-center gap-3 px-3 py-2.5">
      <Avatar name={name} src={avatarUrl} />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-semibold text-fg">{name}</p>
        <p className="truncate text-xs text-muted">{email}</p>
        {status}
      </div>
      {children}
    </li>
  );
}
