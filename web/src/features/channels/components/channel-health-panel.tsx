import type { ChannelHealth, HealthChange } from '@shared/contract/channel-health';
import type { Channel } from '@shared/contract/settings';
import { useState } from 'react';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { HEALTH_WORDS } from '@/lib/channel-health';
import { useChannelHealth, useCheckChannelHealth, useRepairChannel } from '../api/channel-health-api';
import { ChannelHealthBadge } from './channel-health-badge';
import { ChannelHealthDialog } from './channel-health-dialog';
import { checkedWhen } from './checked-text';
import { RepairChanges } from './repair-changes';

/** What the last Check now or Repair of this row came to, shown until the next one. */
type Outcome = { kind: 'repaired'; changes: HealthChange[]; healthy: boolean } | { kind: 'failed'; message: string };

const SMALL = 'min-h-9 px-3 py-1.5';

const isNewer = (a: string | null | undefined, b: string | null) => !!a && (!b || Date.parse(a) > Date.parse(b));

/**
 * A phone channel's health on the Channels page: the badge, the first problem's sentence
 * when it is not healthy, Check now, Repair for owners and admins, and the details.
 */
export function ChannelHealthPanel({
  channel,
  identifier,
  canRepair,
}: {
  channel: Channel;
  /** The number as people read it, naming the row's buttons for screen readers. */
  identifier: string;
  canRepair: boolean;
}) {
  // The list carries the status only: the problem's sentence is in the last check's details. A number
  // never checked is asked about too: the server checks it on that first request.
  const details = useChannelHealth(channel.id, channel.health.status !== 'HEALTHY');
  // Whichever is newer: the list's copy, or the details (which may hold that first check).
  const { status, checkedAt } = isNewer(details.data?.checkedAt, channel.health.checkedAt)
    ? (details.data as ChannelHealth)
    : channel.health;
  const checked = status !== 'UNCHECKED';
  const unhealthy = checked && status !== 'HEALTHY';
  const check = useCheckChannelHealth(channel.id);
  const repair = useRepairChannel(channel.id);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [detailsOpen, setDetailsOpen] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [serviceConfirmed, setServiceConfirmed] = useState(false);

  const problems = details.data?.status === status ? details.data.problems : undefined;
  const sentence = problems?.[0]?.message ?? HEALTH_WORDS[status].sentence;
  // Until the details say otherwise, a drifted number is one Repair can put right.
  const repairable = problems ? problems.some((p) => p.repairable) : status === 'DRIFTED';
  // Changing a Messaging Service changes its other numbers' texts too: that needs its own yes.
  const inService = problems?.some((p) => p.repairable && p.messagingService) ?? false;
  const busy = check.isPending || repair.isPending;
  const sentenceId = `channel-${channel.id}-health`;
  const forNumber = (
    <>
      {' '}
      <span className="sr-only">for {identifier}</span>
    </>
  );

  const runCheck = () => {
    setOutcome(null);
    check.mutate(undefined, { onError: (error) => setOutcome({ kind: 'failed', message: error.message }) });
  };
  // A repair overwrites what someone may have pointed elsewhere on purpose (an automation's URL): it
  // first shows what is there now and what it becomes, and asks (docs/product.md §10.7).
  const askRepair = () => {
    setOutcome(null);
    repair.reset();
    setServiceConfirmed(false);
    setConfirmOpen(true);
  };
  const runRepair = () =>
    repair.mutate(
      { messagingService: inService && serviceConfirmed },
      {
        onSuccess: (answer) => {
          setConfirmOpen(false);
          setOutcome({ kind: 'repaired', changes: answer.changes, healthy: answer.health.status === 'HEALTHY' });
        },
      },
    );

  return (
    <div className="mt-2 flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        {/* A status region: a change of health (a check, a repair, another tab's) is read out. */}
        <span role="status">
          <ChannelHealthBadge status={status} />
        </span>
        {checked && <span className="text-xs text-muted">Checked {checkedWhen(checkedAt)}</span>}
      </div>
      {unhealthy && (
        <p id={sentenceId} className="text-sm wrap-anywhere text-fg">
          {sentence}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <Button
          variant="secondary"
          className={SMALL}
          onClick={runCheck}
          disabled={busy}
          pending={check.isPending}
          pendingLabel="Checking..."
        >
          Check now{forNumber}
        </Button>
        {canRepair && unhealthy && repairable && (
          <Button
            className={SMALL}
            onClick={askRepair}
            disabled={busy}
            pending={repair.isPending}
            pendingLabel="Repairing..."
            aria-describedby={sentenceId}
          >
            Repair{forNumber}
          </Button>
        )}
        <Button variant="ghost" className={SMALL} onClick={() => setDetailsOpen(true)}>
          Health details{forNumber}
        </Button>
      </div>
      {outcome?.kind === 'failed' && <Alert tone="error">{outcome.message}</Alert>}
      {outcome?.kind === 'repaired' && (
        <Alert
          tone={outcome.healthy ? 'success' : 'warning'}
          title={
            outcome.changes.length === 0
              ? 'Nothing needed changing.'
              : outcome.healthy
                ? 'Repaired.'
                : 'Repaired what could be; some problems remain.'
          }
        >
          {outcome.changes.length > 0 && (
            <ul className="list-disc pl-5">
              {outcome.changes.map((change) => (
                <li key={`${change.field}-${change.to}`} className="wrap-anywhere">
                  {change.message}
                </li>
              ))}
            </ul>
          )}
        </Alert>
      )}
      <ConfirmDialog
        open={confirmOpen}
        onOpenChange={setConfirmOpen}
        title={`Repair ${identifier}?`}
        confirmLabel="Repair"
        pendingLabel="Repairing..."
        pending={repair.isPending}
        confirmDisabled={!problems || (inService && !serviceConfirmed)}
        error={repair.isError ? repair.error.message : null}
        onConfirm={runRepair}
      >
        <RepairChanges
          problems={problems}
          checkedAt={checkedAt}
          serviceConfirmed={serviceConfirmed}
          onServiceConfirmedChange={setServiceConfirmed}
        />
      </ConfirmDialog>
      <ChannelHealthDialog channel={channel} identifier={identifier} open={detailsOpen} onOpenChange={setDetailsOpen} />
    </div>
  );
}
