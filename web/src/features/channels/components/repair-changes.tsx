import type { HealthProblem } from '@shared/contract/channel-health';
import { useId } from 'react';
import { Spinner } from '@/components/spinner';
import { usePhoneFormat } from '@/lib/phone-display';
import { plural } from '@/lib/plural';
import { checkedWhen } from './checked-text';

const Term = ({ children }: { children: string }) => <dt className="text-muted">{children}</dt>;
const Value = ({ children }: { children: string }) => (
  <dd className="min-w-0 font-mono text-xs wrap-anywhere text-fg">{children}</dd>
);

/**
 * What a repair would change, from the last check: each repairable setting as it is now in Twilio and
 * as the repair sets it. The current value may be someone's deliberate choice (an automation's URL),
 * so it is shown whole, before anything is overwritten. A Messaging Service is named with its other
 * numbers, whose texts the repair changes too, and asks its own confirmation (docs/product.md §10.7).
 */
export function RepairChanges({
  problems,
  checkedAt,
  serviceConfirmed,
  onServiceConfirmedChange,
}: {
  problems: HealthProblem[] | undefined;
  checkedAt: string | null;
  serviceConfirmed: boolean;
  onServiceConfirmedChange: (confirmed: boolean) => void;
}) {
  const confirmId = useId();
  if (!problems) {
    return (
      <p className="flex items-center gap-2">
        <Spinner className="size-4" />
        Loading what the repair would change...
      </p>
    );
  }
  const repairable = problems.filter((p) => p.repairable);
  return (
    <>
      <p>
        Repair points these settings of the number in Twilio back at Switchboard. Whatever they point to now stops getting these
        calls or texts.
      </p>
      <ul aria-label="What the repair changes" className="mt-3 flex flex-col gap-3">
        {repairable.map((problem) => (
          <li key={`${problem.field}-${problem.actual}`} className="rounded-lg border border-border p-3">
            {problem.messagingService ? (
              <ServiceChange problem={problem} service={problem.messagingService} />
            ) : (
              <dl className="grid grid-cols-[auto_minmax(0,1fr)] items-baseline gap-x-3 gap-y-1">
                <Term>Setting</Term>
                <Value>{problem.field}</Value>
                <Term>Now</Term>
                <Value>{problem.actual ?? 'Not set'}</Value>
                <Term>After repair</Term>
                <Value>{problem.expected ?? 'Not set'}</Value>
              </dl>
            )}
          </li>
        ))}
      </ul>
      {repairable.some((p) => p.messagingService) && (
        <div className="mt-3 flex items-start gap-2 rounded-lg border border-warning-border bg-warning-soft p-3 text-warning-fg">
          <input
            id={confirmId}
            type="checkbox"
            checked={serviceConfirmed}
            onChange={(e) => onServiceConfirmedChange(e.target.checked)}
            className="mt-0.5 size-4 shrink-0 accent-primary"
          />
          <label htmlFor={confirmId} className="cursor-pointer">
            Change the Messaging Service, and with it how texts reach its other numbers
          </label>
        </div>
      )}
      {checkedAt && <p className="mt-3 text-xs">As found by the check {checkedWhen(checkedAt)}.</p>}
    </>
  );
}

function ServiceChange({
  problem,
  service,
}: {
  problem: HealthProblem;
  service: NonNullable<HealthProblem['messagingService']>;
}) {
  return (
    <>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] items-baseline gap-x-3 gap-y-1">
        <Term>Messaging Service</Term>
        <Value>{`${service.friendlyName} (${service.sid})`}</Value>
        <Term>Now</Term>
        <Value>{`Texts go to ${service.inboundRequestUrl ?? 'no URL'}`}</Value>
        <Term>After repair</Term>
        <Value>{problem.expected ?? 'Not set'}</Value>
      </dl>
      {service.otherNumbers > 0 ? (
        <>
          <p className="mt-2 text-xs">
            This also changes the service’s {plural(service.otherNumbers, 'other number')}: their texts go to their own URLs.
          </p>
          <OtherNumbers service={service} />
        </>
      ) : (
        <p className="mt-2 text-xs">The service has no other number.</p>
      )}
    </>
  );
}

/** The service's other numbers the check kept, and how many more it has. */
function OtherNumbers({ service }: { service: NonNullable<HealthProblem['messagingService']> }) {
  const formatPhone = usePhoneFormat();
  const shown = service.otherPhoneNumbers ?? [];
  if (shown.length === 0) return null;
  const more = service.otherNumbers - shown.length;
  return (
    <>
      <ul aria-label={`Other numbers of ${service.friendlyName}`} className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs text-fg">
        {shown.map((number) => (
          <li key={number} className="tabular-nums">
            {formatPhone(number)}
          </li>
        ))}
      </ul>
      {more > 0 && <p className="mt-1 text-xs">and {plural(more, 'more number')}</p>}
    </>
  );
}
