import type { Channel } from '@shared/contract/settings';
import { CircleSlash, Inbox, UserRound } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { Dialog, DialogBody, DialogClose, DialogFooter, DialogForm } from '@/components/dialog';
import { RadioCard } from '@/components/radio-card';
import { SelectField } from '@/components/select-field';
import { Spinner } from '@/components/spinner';
import { errorMessage } from '@/lib/api-client';
import { usePhoneFormat } from '@/lib/phone-display';
import { useLogFailure } from '@/lib/settings-queries';
import { type RoutingChange, type RoutingType, useRoutingTargets, useUpdateRouting } from '../api/channels-api';
import { friendlyNameOf } from './channel-name';

const OPTIONS = [
  { value: 'UNASSIGNED', label: 'Unassigned', description: "Don't route incoming communications", icon: CircleSlash },
  { value: 'INBOX', label: 'Team Inbox', description: 'Route to a shared team inbox', icon: Inbox },
  { value: 'USER', label: 'Specific User', description: "Route to a user's private line", icon: UserRound },
] as const;

export interface ConfigureRoutingDialogProps {
  channel: Channel;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** docs/product.md §2 Configure Routing dialog. */
export function ConfigureRoutingDialog({ channel, open, onOpenChange }: ConfigureRoutingDialogProps) {
  const formatPhone = usePhoneFormat();
  const friendlyName = friendlyNameOf(channel);
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Configure Routing"
      description={
        <>
          Where incoming calls and messages to{' '}
          <span className="font-semibold text-fg tabular-nums">
            {channel.type === 'PHONE' ? formatPhone(channel.identifier) : channel.identifier}
          </span>
          {friendlyName && ` (${friendlyName})`} go.
        </>
      }
    >
      <RoutingForm channel={channel} onSaved={() => onOpenChange(false)} />
    </Dialog>
  );
}

/**
 * docs/product.md §5: saving is blocked while the choices load, or when Team Inbox or Specific User has no
 * target; §4: Unassigned sends routingTargetId null.
 */
export function routingChange(type: RoutingType, target: string): RoutingChange | null {
  if (type === 'UNASSIGNED') return { routingType: 'UNASSIGNED', routingTargetId: null };
  return target ? { routingType: type, routingTargetId: target } : null;
}

function RoutingForm({ channel, onSaved }: { channel: Channel; onSaved: () => void }) {
  const { inboxes, users } = useRoutingTargets(true);
  useLogFailure(inboxes, 'inboxes');
  useLogFailure(users, 'users');
  const update = useUpdateRouting(channel.id);
  const [type, setType] = useState<RoutingType>(channel.routingType);
  // One choice per type, so switching back and forth keeps what was picked.
  const [inboxId, setInboxId] = useState(channel.routingType === 'INBOX' ? (channel.routingTargetId ?? '') : '');
  const [userId, setUserId] = useState(channel.routingType === 'USER' ? (channel.routingTargetId ?? '') : '');

  const inboxList = inboxes.data ?? [];
  const userList = users.data ?? [];
  // A target that no longer exists (a deleted inbox) counts as none.
  const target =
    type === 'INBOX'
      ? inboxList.some((i) => i.id === inboxId)
        ? inboxId
        : ''
      : type === 'USER'
        ? userList.some((u) => u.id === userId)
          ? userId
          : ''
        : '';
  const loading = inboxes.isPending || users.isPending;
  const change = loading ? null : routingChange(type, target);

  const submit = () => {
    if (!change || update.isPending) return;
    update.mutate(change, { onSuccess: onSaved });
  };

  return (
    <DialogForm onSubmit={submit} aria-label="Configure routing">
      <DialogBody className="flex flex-col gap-4">
        {update.isError && <Alert tone="error">{errorMessage(update.error, 'Failed to update routing')}</Alert>}
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-2 text-sm font-medium text-fg">Route incoming communications to</legend>
          {OPTIONS.map((option) => (
            <RadioCard
              key={option.value}
              name="routingType"
              value={option.value}
              checked={type === option.value}
              onChange={(value) => setType(value as RoutingType)}
              label={option.label}
              description={option.description}
              icon={option.icon}
            />
          ))}
        </fieldset>

        {type === 'INBOX' &&
          (inboxes.isPending ? (
            <Loading text="Loading inboxes..." />
          ) : inboxList.length === 0 ? (
            <p className="rounded-lg border border-dashed border-border p-3 text-sm text-muted">
              No inboxes available. Create an inbox first.{' '}
              <Link to="/settings/inboxes" className="font-semibold text-primary underline underline-offset-2">
                Go to Inboxes
              </Link>
            </p>
          ) : (
            <SelectField
              label="Inbox"
              placeholder="Choose an inbox..."
              value={target}
              onChange={(e) => setInboxId(e.target.value)}
              options={inboxList.map((i) => ({ value: i.id, label: i.name }))}
            />
          ))}

        {type === 'USER' &&
          (users.isPending ? (
            <Loading text="Loading users..." />
          ) : userList.length === 0 ? (
            <p className="rounded-lg border border-dashed border-border p-3 text-sm text-muted">No users available.</p>
          ) : (
            <SelectField
              label="User"
              placeholder="Choose a user..."
              value={target}
              onChange={(e) => setUserId(e.target.value)}
              options={userList.map((u) => ({ value: u.id, label: `${u.name} (${u.email})` }))}
            />
          ))}
      </DialogBody>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="secondary">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={!change} pending={update.isPending} pendingLabel="Saving...">
          Save Routing
        </Button>
      </DialogFooter>
    </DialogForm>
  );
}

function Loading({ text }: { text: string }) {
  return (
    <p role="status" className="flex items-center gap-2 text-sm text-muted">
      <Spinner className="size-4" />
      {text}
    </p>
  );
}
