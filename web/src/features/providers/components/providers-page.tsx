import type { Provider } from '@shared/contract/settings';
import { Download, Mail, Phone, Plug, Trash2 } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/alert';
import { Badge } from '@/components/badge';
import { Button } from '@/components/button';
import { Card } from '@/components/card';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { IconButton } from '@/components/icon-button';
import { ManagersOnlyNote } from '@/components/managers-only-note';
import { PageHeader } from '@/components/page-header';
import { Skeleton } from '@/components/skeleton';
import { Surface } from '@/components/surface';
import { useCanManage } from '@/hooks/use-can-manage';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { usePhoneFormat } from '@/lib/phone-display';
import { plural } from '@/lib/plural';
import { useLogFailure } from '@/lib/settings-queries';
import { type SkippedNumber, useDisconnectProvider, useProviders } from '../api/providers-api';
import { ConnectTwilioDialog } from './connect-twilio-dialog';
import { ImportNumbersDialog } from './import-numbers-dialog';
import { providerName } from './provider-name';

type Notice = { kind: 'connected' } | { kind: 'imported'; count: number; skipped: SkippedNumber[] } | { kind: 'disconnected' };

/** docs/product.md §2 Settings: Providers. */
export function ProvidersPage() {
  const providers = useProviders();
  useLogFailure(providers, 'providers');
  const twilio = providers.data?.find((p) => p.type === 'TWILIO');
  const [notice, setNotice] = useState<Notice | null>(null);
  const canManage = useCanManage();

  return (
    <>
      <PageHeader title="Providers" description="Connect the accounts your phone numbers come from." />
      {!canManage && <ManagersOnlyNote />}
      {notice && (
        <div className="mb-4">
          <NoticeBanner notice={notice} />
        </div>
      )}
      <div className="grid gap-4 lg:grid-cols-2">
        {providers.isPending ? (
          <Card role="status" className="flex flex-col gap-3">
            <span className="sr-only">Loading providers...</span>
            <Skeleton className="h-6 w-32" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-10 w-28" />
          </Card>
        ) : (
          <TwilioCard
            // A fresh card per connection: nothing of the connect form (state, focused DOM) carries over.
            key={twilio?.id ?? 'not-connected'}
            provider={twilio}
            justConnected={notice?.kind === 'connected'}
            loadFailed={providers.isError}
            retrying={providers.isFetching}
            onRetry={() => providers.refetch()}
            onNotice={setNotice}
            canManage={canManage}
          />
        )}
        <EmailCard />
      </div>
    </>
  );
}

function NoticeBanner({ notice }: { notice: Notice }) {
  const formatPhone = usePhoneFormat();
  if (notice.kind === 'connected') {
    return <Alert tone="success">Twilio connected. Import your phone numbers to start using them.</Alert>;
  }
  if (notice.kind === 'disconnected') return <Alert tone="success">Twilio disconnected.</Alert>;
  return (
    <Alert tone="success">
      Imported {plural(notice.count, 'number')}.{' '}
      <Link to="/settings/channels" className="font-semibold underline underline-offset-2">
        Set up their routing on the Channels page
      </Link>
      .
      {notice.skipped.length > 0 && (
        <ul className="mt-2 list-disc pl-5">
          {notice.skipped.map((s) => (
            <li key={s.phoneNumber}>
              {formatPhone(s.phoneNumber)} was not imported: {s.reason}
            </li>
          ))}
        </ul>
      )}
    </Alert>
  );
}

function ProviderCard({
  icon: Icon,
  name,
  status,
  description,
  action,
  children,
  dimmed,
}: {
  icon: typeof Phone;
  name: string;
  status: ReactNode;
  description: ReactNode;
  action?: ReactNode;
  children?: ReactNode;
  dimmed?: boolean;
}) {
  return (
    <Surface muted={dimmed} className="flex flex-col gap-4 p-6">
      <div className="flex items-start gap-4">
        <span
          className={cn(
            'flex size-11 shrink-0 items-center justify-center rounded-lg',
            dimmed ? 'bg-surface text-muted' : 'bg-primary-soft text-primary',
          )}
        >
          <Icon aria-hidden="true" className="size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className={cn('text-base font-semibold', dimmed ? 'text-muted' : 'text-fg')}>{name}</h2>
            {status}
          </div>
          <p className="mt-1 text-sm text-muted">{description}</p>
        </div>
        {action}
      </div>
      {children}
    </Surface>
  );
}

function TwilioCard({
  provider,
  justConnected,
  loadFailed,
  retrying,
  onRetry,
  onNotice,
  canManage,
}: {
  provider: Provider | undefined;
  justConnected: boolean;
  /** docs/product.md §8 shows a failed list as Not connected; this adds a quiet way to ask again. */
  loadFailed: boolean;
  retrying: boolean;
  onRetry: () => void;
  onNotice: (notice: Notice | null) => void;
  canManage: boolean;
}) {
  const [connectOpen, setConnectOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const disconnect = useDisconnectProvider();
  const name = providerName('TWILIO');
  const importButton = useRef<HTMLButtonElement>(null);
  const providerId = provider?.id;

  // The Connect button is gone once connected: focus goes to what comes next, importing numbers.
  useEffect(() => {
    if (providerId && justConnected) importButton.current?.focus();
  }, [providerId, justConnected]);

  if (!provider) {
    return (
      <ProviderCard
        icon={Phone}
        name={name}
        status={<Badge>Not connected</Badge>}
        description="Bring your Twilio phone numbers in to call and text from the browser."
      >
        {loadFailed && (
          <p className="text-sm text-muted">
            Couldn&apos;t load providers.{' '}
            <button
              type="button"
              onClick={onRetry}
              disabled={retrying}
              className="font-semibold text-primary underline underline-offset-2 hover:no-underline disabled:opacity-60"
            >
              {retrying ? 'Retrying...' : 'Retry'}
            </button>
          </p>
        )}
        {canManage && (
          <div>
            <Button
              onClick={() => {
                onNotice(null);
                setConnectOpen(true);
              }}
            >
              <Plug aria-hidden="true" className="size-4" />
              Connect
            </Button>
          </div>
        )}
        <ConnectTwilioDialog
          open={connectOpen}
          onOpenChange={setConnectOpen}
          onConnected={() => onNotice({ kind: 'connected' })}
        />
      </ProviderCard>
    );
  }

  const openConfirm = (open: boolean) => {
    if (open) disconnect.reset();
    setConfirmOpen(open);
  };

  return (
    <ProviderCard
      icon={Phone}
      name={name}
      status={<Badge tone="success">Connected</Badge>}
      description={plural(provider.channelCount, 'channel')}
      action={
        canManage && <IconButton icon={Trash2} tone="danger" label={`Disconnect ${name}`} onClick={() => openConfirm(true)} />
      }
    >
      <dl className="text-sm">
        <dt className="text-muted">Account SID</dt>
        <dd className="mt-0.5 font-mono text-xs break-all text-fg">{provider.accountSid}</dd>
      </dl>
      {canManage && (
        <div>
          <Button
            ref={importButton}
            variant="secondary"
            onClick={() => {
              onNotice(null);
              setImportOpen(true);
            }}
          >
            <Download aria-hidden="true" className="size-4" />
            Import numbers
          </Button>
        </div>
      )}
      <ImportNumbersDialog
        provider={provider}
        open={importOpen}
        onOpenChange={setImportOpen}
        onImported={(count, skipped) => onNotice({ kind: 'imported', count, skipped })}
      />
      <ConfirmDialog
        open={confirmOpen}
        onOpenChange={openConfirm}
        title={`Disconnect ${name}?`}
        confirmLabel="Disconnect"
        pendingLabel="Disconnecting..."
        pending={disconnect.isPending}
        error={disconnect.isError ? errorMessage(disconnect.error, 'Failed to disconnect provider') : null}
        onConfirm={() =>
          disconnect.mutate(provider.id, {
            onSuccess: () => {
              setConfirmOpen(false);
              onNotice({ kind: 'disconnected' });
            },
          })
        }
      >
        <p>Disconnecting {name}:</p>
        <ul className="mt-2 list-disc space-y-1 pl-5">
          <li>removes your {name} credentials from Switchboard;</li>
          <li>
            deactivates the imported channels ({plural(provider.channelCount, 'channel')}) and stops webhook routing to them.
          </li>
        </ul>
        <p className="mt-2">Your {name} account and its phone numbers are left untouched.</p>
      </ConfirmDialog>
    </ProviderCard>
  );
}

function EmailCard() {
  return (
    <ProviderCard dimmed icon={Mail} name="Email" status={<Badge>Coming soon</Badge>} description="Email support (coming soon)">
      <div>
        <Button variant="secondary" disabled aria-label="Connect email (coming soon)">
          Connect
        </Button>
      </div>
    </ProviderCard>
  );
}
