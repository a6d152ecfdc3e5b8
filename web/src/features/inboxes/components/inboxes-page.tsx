import type { Inbox } from '@shared/contract/settings';
import { useQuery } from '@tanstack/react-query';
import { CalendarDays, Inbox as InboxIcon, PhoneCall, Plus, Settings2, Trash2, UsersRound } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/button';
import { Card } from '@/components/card';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { EmptyState } from '@/components/empty-state';
import { IconButton } from '@/components/icon-button';
import { ManagersOnlyNote } from '@/components/managers-only-note';
import { PageHeader } from '@/components/page-header';
import { Skeleton } from '@/components/skeleton';
import { Surface } from '@/components/surface';
import { useCanManage } from '@/hooks/use-can-manage';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format-date';
import { usePhoneFormat } from '@/lib/phone-display';
import { plural } from '@/lib/plural';
import { channelsQuery, useLogFailure } from '@/lib/settings-queries';
import { useDeleteInbox, useInboxes } from '../api/inboxes-api';
import { CreateInboxDialog } from './create-inbox-dialog';
import { InboxRoutingDialog } from './inbox-routing-dialog';
import { ManageMembersDialog } from './manage-members-dialog';
import { RecordCallsToggle } from './record-calls-toggle';

type Open = { inbox: Inbox; open: boolean } | null;

/** docs/product.md §2 Settings: Inboxes. */
export function InboxesPage() {
  const inboxes = useInboxes();
  useLogFailure(inboxes, 'inboxes');
  const remove = useDeleteInbox();
  const [createOpen, setCreateOpen] = useState(false);
  const [members, setMembers] = useState<Open>(null);
  const [routing, setRouting] = useState<Open>(null);
  const [deleting, setDeleting] = useState<Open>(null);
  const list = inboxes.data ?? [];
  const canManage = useCanManage();

  const keepInbox = (set: typeof setMembers) => (open: boolean) => set((s) => (s ? { ...s, open } : null));
  const createButton = (
    <Button onClick={() => setCreateOpen(true)}>
      <Plus aria-hidden="true" className="size-4" />
      Create Inbox
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Inboxes"
        description="Shared inboxes route calls and messages to the people who answer them."
        actions={canManage && createButton}
      />
      {!canManage && <ManagersOnlyNote />}
      {inboxes.isPending ? (
        <div role="status" className="flex flex-col gap-3">
          <span className="sr-only">Loading inboxes...</span>
          {[0, 1].map((i) => (
            <Surface key={i} className="flex flex-col gap-3 p-5">
              <Skeleton className="h-5 w-40" />
              <Skeleton className="h-4 w-64 max-w-full" />
              <Skeleton className="h-4 w-52 max-w-full" />
            </Surface>
          ))}
        </div>
      ) : list.length === 0 ? (
        <Card>
          <EmptyState icon={InboxIcon} title="No inboxes yet">
            Create an inbox for a team, add its members, then route phone numbers to it from the Channels page.
          </EmptyState>
        </Card>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Inboxes">
          {list.map((inbox) => (
            <li key={inbox.id}>
              <Surface className="flex items-start gap-4 p-4 sm:p-5">
                <span className="hidden size-10 shrink-0 items-center justify-center rounded-lg bg-primary-soft text-primary sm:flex">
                  <InboxIcon aria-hidden="true" className="size-5" />
                </span>
                <div className="min-w-0 flex-1">
                  <h2 className="font-semibold break-words text-fg">{inbox.name}</h2>
                  {inbox.description && (
                    <p className="mt-0.5 text-sm wrap-break-word whitespace-pre-line text-muted">{inbox.description}</p>
                  )}
                  <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted">
                    <button
                      type="button"
                      onClick={() => setMembers({ inbox, open: true })}
                      aria-label={`Manage members of ${inbox.name}: ${plural(inbox.memberCount, 'member')}`}
                      className="inline-flex items-center gap-1.5 font-medium text-primary underline-offset-2 hover:underline"
                    >
                      <UsersRound aria-hidden="true" className="size-4" />
                      {plural(inbox.memberCount, 'member')}
                    </button>
                    <span className="inline-flex items-center gap-1.5">
                      <PhoneCall aria-hidden="true" className="size-4" />
                      {plural(inbox.channelCount, 'channel')} connected
                    </span>
                    <span className="inline-flex items-center gap-1.5">
                      <CalendarDays aria-hidden="true" className="size-4" />
                      Created {formatDate(inbox.createdAt)}
                    </span>
                    <RecordCallsToggle inbox={inbox} canManage={canManage} />
                  </div>
                </div>
                {canManage && (
                  <div className="flex shrink-0 gap-1">
                    <IconButton
                      icon={Settings2}
                      label={`Configure call routing for ${inbox.name}`}
                      onClick={() => setRouting({ inbox, open: true })}
                    />
                    <IconButton
                      icon={Trash2}
                      tone="danger"
                      label={`Delete ${inbox.name}`}
                      onClick={() => {
                        remove.reset();
                        setDeleting({ inbox, open: true });
                      }}
                    />
                  </div>
                )}
              </Surface>
            </li>
          ))}
        </ul>
      )}

      <CreateInboxDialog open={createOpen} onOpenChange={setCreateOpen} />
      {members && <ManageMembersDialog inbox={members.inbox} open={members.open} onOpenChange={keepInbox(setMembers)} />}
      {routing && <InboxRoutingDialog inbox={routing.inbox} open={routing.open} onOpenChange={keepInbox(setRouting)} />}
      {deleting && (
        <ConfirmDialog
          open={deleting.open}
          onOpenChange={keepInbox(setDeleting)}
          title={`Delete ${deleting.inbox.name}?`}
          confirmLabel="Delete"
          pendingLabel="Deleting..."
          pending={remove.isPending}
          error={remove.isError ? errorMessage(remove.error, 'Failed to delete inbox') : null}
          onConfirm={() => remove.mutate(deleting.inbox.id, { onSuccess: () => setDeleting(null) })}
        >
          <p>Are you sure you want to delete this inbox? This action cannot be undone.</p>
          <RoutedChannels inboxId={deleting.inbox.id} />
        </ConfirmDialog>
      )}
    </>
  );
}

/** Deleting an inbox unassigns what is routed to it: the confirmation names those channels. */
function RoutedChannels({ inboxId }: { inboxId: string }) {
  const formatPhone = usePhoneFormat();
  const channels = useQuery({
    ...channelsQuery(),
    select: (list) => list.filter((c) => c.routingType === 'INBOX' && c.routingTargetId === inboxId),
  });
  const routed = channels.data ?? [];
  if (routed.length === 0) return null;
  return (
    <>
      <p className="mt-3">
        {routed.length === 1 ? 'This channel becomes unassigned:' : `These ${routed.length} channels become unassigned:`}
      </p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {routed.map((c) => (
          <li key={c.id} className="wrap-anywhere text-fg">
            {c.type === 'PHONE' ? formatPhone(c.identifier) : c.identifier}
            {c.friendlyName && c.friendlyName !== formatPhone(c.identifier) ? ` (${c.friendlyName})` : ''}
          </li>
        ))}
      </ul>
    </>
  );
}
