import type { Inbox } from '@shared/contract/settings';
import { BellRing, Voicemail } from 'lucide-react';
import { Alert } from '@/components/alert';
import { Badge } from '@/components/badge';
import { Button } from '@/components/button';
import { Dialog, DialogBody, DialogClose, DialogFooter, DialogForm } from '@/components/dialog';
import { RadioCard } from '@/components/radio-card';
import { Spinner } from '@/components/spinner';
import { errorMessage } from '@/lib/api-client';
import { useLogFailure } from '@/lib/settings-queries';
import { useInboxRouting, useSaveInboxRouting } from '../api/inboxes-api';

/** docs/product.md §2 Inboxes, call routing dialog: Ring All Users, or Send to Voicemail (disabled, Coming Soon). */
export function InboxRoutingDialog({
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
      title="Call Routing"
      description={
        <>
          How calls to <span className="font-semibold text-fg">{inbox.name}</span> ring its members.
        </>
      }
    >
      <RoutingForm inboxId={inbox.id} onSaved={() => onOpenChange(false)} />
    </Dialog>
  );
}

function RoutingForm({ inboxId, onSaved }: { inboxId: string; onSaved: () => void }) {
  const strategies = useInboxRouting(inboxId);
  // Ring All is the only strategy there is, so a failed read still shows it chosen.
  useLogFailure(strategies, 'routing strategy');
  const save = useSaveInboxRouting(inboxId);

  return (
    <DialogForm onSubmit={() => !save.isPending && save.mutate(undefined, { onSuccess: onSaved })} aria-label="Call routing">
      <DialogBody className="flex flex-col gap-4">
        {save.isError && <Alert tone="error">{errorMessage(save.error, 'Failed to save routing strategy')}</Alert>}
        {strategies.isPending ? (
          <p role="status" className="flex items-center gap-2 py-6 text-sm text-muted">
            <Spinner className="size-4" />
            Loading routing...
          </p>
        ) : (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-2 text-sm font-medium text-fg">When a call comes in</legend>
            <RadioCard
              name="strategyType"
              value="RING_ALL"
              checked
              onChange={() => {}}
              icon={BellRing}
              label="Ring All Users"
              description="Ring all assigned users at once in their browsers; the first to answer gets the call."
            />
            <RadioCard
              name="strategyType"
              value="VOICEMAIL"
              checked={false}
              disabled
              onChange={() => {}}
              icon={Voicemail}
              label="Send to Voicemail"
              badge={<Badge>Coming Soon</Badge>}
              description="Send callers straight to voicemail."
            />
          </fieldset>
        )}
      </DialogBody>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="secondary">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={strategies.isPending} pending={save.isPending} pendingLabel="Saving...">
          Save Routing
        </Button>
      </DialogFooter>
    </DialogForm>
  );
}
