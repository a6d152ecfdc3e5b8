import type { HealthProblem } from '@shared/contract/channel-health';
import { Spinner } from '@/components/spinner';
import { plural } from '@/lib/plural';
import { checkedWhen } from './checked-text';

const Term = ({ children }: { children: string }) => <dt className="text-muted">{children}</dt>;
const Value = ({ children }: { children: string }) => (
  <dd className="min-w-0 font-mono text-xs wrap-anywhere text-fg">{children}</dd>
);

/**
 * What a repair would change, from the last check: each repairable setting as it is now in Twilio and
 * as the repair sets it. The current value may be someone's deliberate choice (an automation's URL),
 * so it is shown whole, before anything is overwritten.
 */
export function RepairChanges({ problems, checkedAt }: { problems: HealthProblem[] | undefined; checkedAt: string | null }) {
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
      {service.otherNumbers > 0 && (
        <p className="mt-2 text-xs">
          This also changes the service’s {plural(service.otherNumbers, 'other number')}: their texts go to their own URLs.
        </p>
      )}
    </>
  );
}
