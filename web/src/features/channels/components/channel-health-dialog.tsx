import type { ChannelHealth, DeliverySummary, HealthProblem } from '@shared/contract/channel-health';
import type { Channel } from '@shared/contract/settings';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { Dialog, DialogBody, DialogClose, DialogFooter } from '@/components/dialog';
import { Spinner } from '@/components/spinner';
import { formatDate } from '@/lib/format-date';
import { plural } from '@/lib/plural';
import { useChannelHealth } from '../api/channel-health-api';
import { ChannelHealthBadge } from './channel-health-badge';
import { checkedWhen } from './checked-text';

/** Every problem of the last check and the last days' delivery summary of one channel. */
export function ChannelHealthDialog({
  channel,
  identifier,
  open,
  onOpenChange,
}: {
  channel: Channel;
  identifier: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const health = useChannelHealth(channel.id, open);
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Channel Health" description={identifier} size="lg">
      {/* Focusable and named: on a small screen the details scroll, and the keyboard must reach all of them. */}
      <DialogBody tabIndex={0} role="region" aria-label="Health details" className="flex flex-col gap-6">
        {health.isPending ? (
          <p role="status" className="flex items-center gap-2 text-sm text-muted">
            <Spinner className="size-4" />
            Loading health...
          </p>
        ) : health.isError ? (
          <Alert tone="error" title="The health of this channel could not be loaded.">
            {health.error.message}
          </Alert>
        ) : (
          <HealthDetails health={health.data} />
        )}
      </DialogBody>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="secondary">Close</Button>
        </DialogClose>
      </DialogFooter>
    </Dialog>
  );
}

function HealthDetails({ health }: { health: ChannelHealth }) {
  return (
    <>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <ChannelHealthBadge status={health.status} />
        <span className="text-sm text-muted">
          {health.checkedAt ? `Last checked ${checkedWhen(health.checkedAt)}` : 'Not checked yet'}
        </span>
      </div>
      <section aria-labelledby="health-problems">
        <h3 id="health-problems" className="text-sm font-semibold text-fg">
          Problems
        </h3>
        {health.problems.length === 0 ? (
          <p className="mt-2 text-sm text-muted">No problems found.</p>
        ) : (
          <ul className="mt-2 flex flex-col gap-3">
            {health.problems.map((problem) => (
              <Problem key={`${problem.field}-${problem.actual}`} problem={problem} />
            ))}
          </ul>
        )}
      </section>
      <Delivery delivery={health.delivery} />
    </>
  );
}

const Term = ({ children }: { children: string }) => <dt className="text-muted">{children}</dt>;
const Value = ({ children }: { children: string }) => (
  <dd className="min-w-0 font-mono text-xs wrap-anywhere text-fg">{children}</dd>
);

function Problem({ problem }: { problem: HealthProblem }) {
  const service = problem.messagingService;
  return (
    <li className="rounded-lg border border-border p-3 text-sm">
      <p className="font-medium text-fg">{problem.message}</p>
      <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] items-baseline gap-x-3 gap-y-1">
        <Term>Field</Term>
        <Value>{problem.field}</Value>
        <Term>Expected</Term>
        <Value>{problem.expected ?? 'Not set'}</Value>
        <Term>Actual</Term>
        <Value>{problem.actual ?? 'Not set'}</Value>
        {service && (
          <>
            <Term>Messaging Service</Term>
            <Value>{`${service.friendlyName} (${service.sid})`}</Value>
            <Term>Its inbound URL</Term>
            <Value>{service.inboundRequestUrl ?? 'Not set'}</Value>
            <Term>Its other numbers</Term>
            <Value>{String(service.otherNumbers)}</Value>
          </>
        )}
      </dl>
      {!problem.repairable && <p className="mt-2 text-xs text-muted">Repair cannot change this: it is done in Twilio.</p>}
    </li>
  );
}

const FIGURES = [
  ['sent', 'Sent'],
  ['delivered', 'Delivered'],
  ['failed', 'Failed'],
  ['undelivered', 'Undelivered'],
] as const;

function Delivery({ delivery }: { delivery: DeliverySummary }) {
  return (
    <section aria-labelledby="health-delivery">
      <h3 id="health-delivery" className="text-sm font-semibold text-fg">
        Texts sent since {formatDate(delivery.since)}
      </h3>
      <dl className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-4">
        {FIGURES.map(([key, label]) => (
          <div key={key} className="rounded-lg border border-border px-3 py-2">
            <dt className="text-xs text-muted">{label}</dt>
            <dd className="text-lg font-semibold text-fg tabular-nums">{delivery[key]}</dd>
          </div>
        ))}
      </dl>
      {delivery.errors.length === 0 ? (
        <p className="mt-3 text-sm text-muted">No delivery errors.</p>
      ) : (
        <ul aria-label="Delivery errors" className="mt-3 flex flex-col gap-3">
          {delivery.errors.map((error) => (
            <li key={error.code} className="rounded-lg border border-border p-3 text-sm">
              <p className="font-medium text-fg">
                Error {error.code}: {error.message}{' '}
                <span className="font-normal text-muted">({plural(error.count, 'text')})</span>
              </p>
              <p className="mt-1 text-muted">{error.advice}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
