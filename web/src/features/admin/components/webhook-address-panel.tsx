import type { RepointFailure } from '@shared/contract/admin';
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/alert';
import { Badge } from '@/components/badge';
import { Button } from '@/components/button';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Skeleton } from '@/components/skeleton';
import { Surface } from '@/components/surface';
import { errorMessage } from '@/lib/api-client';
import { type RepointProgress, useRepointWebhooks, useWebhookAddress } from '../api/admin-api';

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** "4 numbers of 2 companies" */
const numbersOf = (numbers: number, companies: number) =>
  `${plural(numbers, 'number')} of ${plural(companies, 'company', 'companies')}`;

/**
 * Where Twilio reaches the platform, and re-pointing every company's numbers there after the public
 * URL changed (docs/deploy.md: Re-pointing the numbers). The re-point goes on pass after pass
 * while the dialog stays open, its totals shown as they come.
 */
export function WebhookAddressPanel() {
  const address = useWebhookAddress(true);
  const repoint = useRepointWebhooks();
  const [open, setOpen] = useState(false);
  const [progress, setProgress] = useState<RepointProgress | null>(null);
  const [result, setResult] = useState<RepointProgress | null>(null);

  const start = () => {
    if (repoint.isPending) return;
    setProgress(null);
    repoint.mutate(
      { onPass: setProgress },
      {
        onSuccess: (total) => {
          setResult(total);
          setOpen(false);
        },
      },
    );
  };
  const elsewhere = address.data?.pointingElsewhere;
  const needed = Boolean(elsewhere && elsewhere.numbers + elsewhere.companies > 0);

  return (
    <Surface role="region" className="mb-6 p-4 sm:p-5" aria-labelledby="webhook-address-title">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 flex-1">
          <h2 id="webhook-address-title" className="text-base font-semibold text-fg">
            Webhook address
          </h2>
          <p className="mt-1 text-sm text-muted">Where Twilio sends every company’s calls and texts.</p>
          {address.isError ? (
            <div className="mt-3">
              <Alert tone="error">{errorMessage(address.error, 'Failed to load the webhook address')}</Alert>
            </div>
          ) : address.isPending ? (
            <Skeleton className="mt-3 h-5 w-2/3" />
          ) : (
            <>
              <p className="mt-3 font-mono text-sm break-all text-fg">{address.data.webhookBase}</p>
              <p className="mt-2 text-sm">
                {needed && elsewhere ? (
                  <Badge tone="warning" wrap>
                    {numbersOf(elsewhere.numbers, elsewhere.companies)} point elsewhere
                  </Badge>
                ) : (
                  <Badge tone="success">Every number points here</Badge>
                )}
              </p>
            </>
          )}
        </div>
        <Button
          variant={needed ? 'primary' : 'secondary'}
          disabled={!address.data}
          onClick={() => {
            repoint.reset();
            setProgress(null);
            setOpen(true);
          }}
        >
          <RefreshCw aria-hidden="true" className="size-4" />
          Re-point numbers
        </Button>
      </div>
      {result && <RepointSummary result={result} />}
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          // Closing mid-way would hide a re-point still under way; it finishes first.
          if (!repoint.isPending) setOpen(next);
        }}
        title="Re-point every company’s numbers?"
        confirmLabel="Re-point numbers"
        pendingLabel="Re-pointing..."
        pending={repoint.isPending}
        error={
          repoint.isError
            ? `${errorMessage(repoint.error, 'Re-pointing stopped')}${
                progress
                  ? ` ${numbersOf(progress.repointed.numbers, progress.repointed.companies)} were re-pointed before it stopped.`
                  : ''
              } Re-point again to go on: what is done is skipped.`
            : null
        }
        onConfirm={start}
        fields={
          <p aria-live="polite" className="text-sm text-muted">
            {repoint.isPending && progress
              ? `${numbersOf(progress.repointed.numbers, progress.repointed.companies)} re-pointed so far...`
              : ''}
          </p>
        }
      >
        Every company’s imported Twilio numbers and outbound-call application are pointed at{' '}
        <span className="font-mono break-all text-fg">{address.data?.webhookBase}</span>. Numbers already there are left alone;
        one whose URLs the company changed in Twilio is reported, not changed.
      </ConfirmDialog>
    </Surface>
  );
}

function RepointSummary({ result }: { result: RepointProgress }) {
  const { numbers, companies } = result.repointed;
  return (
    <div className="mt-4 flex flex-col gap-3">
      <Alert tone="success">
        {numbers + companies === 0
          ? 'Nothing needed re-pointing.'
          : `Re-pointed ${numbersOf(numbers, companies)} to ${result.webhookBase}.`}
      </Alert>
      {result.failures.length > 0 && (
        <Alert tone="warning" title={`${plural(result.failures.length, 'item')} could not be re-pointed`}>
          <ul className="list-disc space-y-1 pl-5">
            {result.failures.map((failure) => (
              <li key={`${failure.companyId}:${failure.phoneNumber}`}>
                <FailureLine failure={failure} />
              </li>
            ))}
          </ul>
        </Alert>
      )}
    </div>
  );
}

function FailureLine({ failure }: { failure: RepointFailure }) {
  return (
    <>
      <span className="font-semibold">{failure.companyName}</span>
      {' · '}
      {failure.phoneNumber ?? 'Outbound-call application'}: {failure.reason}
    </>
  );
}
