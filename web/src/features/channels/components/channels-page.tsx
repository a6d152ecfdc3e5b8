import type { Channel } from '@shared/contract/settings';
import { ArrowRight, Inbox, Mail, Phone, PhoneOff, Settings2, UserRound } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/badge';
import { Card } from '@/components/card';
import { EmptyState } from '@/components/empty-state';
import { IconButton } from '@/components/icon-button';
import { ManagersOnlyNote } from '@/components/managers-only-note';
import { PageHeader } from '@/components/page-header';
import { Skeleton } from '@/components/skeleton';
import { Surface } from '@/components/surface';
import { useCanManage } from '@/hooks/use-can-manage';
import { cn } from '@/lib/cn';
import { usePhoneFormat } from '@/lib/phone-display';
import { useLogFailure } from '@/lib/settings-queries';
import { useChannels } from '../api/channels-api';
import { ChannelHealthPanel } from './channel-health-panel';
import { friendlyNameOf } from './channel-name';
import { ConfigureRoutingDialog } from './configure-routing-dialog';
import { routingText } from './routing-text';

/** docs/product.md §2 Settings: Channels. */
export function ChannelsPage() {
  const channels = useChannels();
  useLogFailure(channels, 'channels');
  const [editing, setEditing] = useState<{ channel: Channel; open: boolean } | null>(null);
  const list = channels.data ?? [];
  const phones = list.filter((c) => c.type === 'PHONE');
  const emails = list.filter((c) => c.type === 'EMAIL');
  // Members who cannot change routing see the rows without their edit buttons.
  const edit = useCanManage() ? (channel: Channel) => setEditing({ channel, open: true }) : undefined;

  return (
    <>
      <PageHeader
        title="Channels"
        description="The phone numbers and e-mail addresses customers reach you on, and where each one goes."
      />
      {!edit && <ManagersOnlyNote />}
      {channels.isPending ? (
        <Card role="status" className="flex flex-col gap-4">
          <span className="sr-only">Loading channels...</span>
          {[0, 1, 2].map((i) => (
            <div key={i} className="flex items-center gap-4">
              <Skeleton className="size-9 rounded-lg" />
              <div className="flex flex-1 flex-col gap-2">
                <Skeleton className="h-4 w-40" />
                <Skeleton className="h-3 w-24" />
              </div>
            </div>
          ))}
        </Card>
      ) : list.length === 0 ? (
        <Card>
          <EmptyState
            icon={PhoneOff}
            title="No channels yet"
            action={
              <Link
                to="/settings/providers"
                className="inline-flex min-h-10 items-center rounded-lg bg-primary px-4 py-2 text-sm font-semibold text-primary-fg hover:bg-primary-hover"
              >
                Go to Providers
              </Link>
            }
          >
            Connect your provider and import its phone numbers: they appear here as channels.
          </EmptyState>
        </Card>
      ) : (
        <div className="flex flex-col gap-6">
          <ChannelGroup
            title={`Phone Numbers (${phones.length})`}
            icon={Phone}
            channels={phones}
            empty="No phone numbers yet."
            onEdit={edit}
          />
          <ChannelGroup
            title={`Email Addresses (${emails.length})`}
            icon={Mail}
            channels={emails}
            empty="No e-mail addresses yet."
            onEdit={edit}
          />
        </div>
      )}
      {editing && (
        <ConfigureRoutingDialog
          channel={editing.channel}
          open={editing.open}
          onOpenChange={(open) => setEditing((e) => (e ? { ...e, open } : null))}
        />
      )}
    </>
  );
}

function ChannelGroup({
  title,
  icon: Icon,
  channels,
  empty,
  onEdit,
}: {
  title: string;
  icon: typeof Phone;
  channels: Channel[];
  empty: string;
  onEdit?: (channel: Channel) => void;
}) {
  return (
    <section aria-label={title}>
      <h2 className="mb-3 flex items-center gap-2 text-sm font-semibold tracking-wide text-muted uppercase">
        <Icon aria-hidden="true" className="size-4" />
        {title}
      </h2>
      <Surface>
        {channels.length === 0 ? (
          <p className="px-5 py-4 text-sm text-muted">{empty}</p>
        ) : (
          <ul className="divide-y divide-border">
            {channels.map((channel) => (
              <ChannelRow key={channel.id} channel={channel} onEdit={onEdit && (() => onEdit(channel))} />
            ))}
          </ul>
        )}
      </Surface>
    </section>
  );
}

const CAPABILITIES = [
  ['voice', 'Voice'],
  ['sms', 'SMS'],
  ['mms', 'MMS'],
] as const;

const TARGETS = {
  INBOX: { icon: Inbox, label: 'Team inbox' },
  USER: { icon: UserRound, label: 'User' },
} as const;

function ChannelRow({ channel, onEdit }: { channel: Channel; onEdit?: () => void }) {
  const formatPhone = usePhoneFormat();
  const routing = routingText(channel);
  const phone = channel.type === 'PHONE';
  const active = channel.status === 'ACTIVE';
  const capabilities = CAPABILITIES.filter(([key]) => channel.capabilities[key]);
  const identifier = phone ? formatPhone(channel.identifier) : channel.identifier;
  const friendlyName = friendlyNameOf(channel);
  const target = routing.target ? TARGETS[routing.target] : null;
  const inactiveNoteId = `channel-${channel.id}-inactive`;
  return (
    <li className="flex items-start gap-3 px-4 py-3 sm:gap-4 sm:px-5">
      <span className="hidden size-9 shrink-0 items-center justify-center rounded-lg bg-primary-soft text-primary sm:flex">
        {phone ? <Phone aria-hidden="true" className="size-4" /> : <Mail aria-hidden="true" className="size-4" />}
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <p className="font-semibold wrap-anywhere text-fg tabular-nums">{identifier}</p>
          {phone && <Badge tone={active ? 'success' : 'neutral'}>{active ? 'Active' : 'Inactive'}</Badge>}
        </div>
        {friendlyName && <p className="text-sm wrap-anywhere text-muted">{friendlyName}</p>}
        {phone && !active && (
          <p id={inactiveNoteId} className="mt-1 text-xs text-muted">
            Not receiving calls or messages: its provider was disconnected. Import the number again in{' '}
            <Link to="/settings/providers" className="font-semibold text-primary underline underline-offset-2">
              Settings → Providers
            </Link>{' '}
            to reactivate it; its routing is kept.
          </p>
        )}
        <div className="mt-1 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
          <p className={cn('flex items-center gap-1.5', routing.routed ? 'font-medium text-fg' : 'text-muted')}>
            <span className="sr-only">Routing: </span>
            {routing.routed && <ArrowRight aria-hidden="true" className="size-3.5 shrink-0 text-muted" />}
            {target && (
              <>
                <target.icon aria-hidden="true" className="size-3.5 shrink-0 text-muted" />
                <span className="sr-only">{target.label} </span>
              </>
            )}
            <span className="min-w-0 wrap-anywhere">{routing.text}</span>
          </p>
          {phone && capabilities.length > 0 && (
            <ul className="flex flex-wrap items-center gap-x-3 text-xs text-muted" aria-label="Capabilities">
              {capabilities.map(([key, label]) => (
                <li key={key} className="flex items-center gap-1.5">
                  <span aria-hidden="true" className="size-1.5 rounded-full bg-current" />
                  {label}
                </li>
              ))}
            </ul>
          )}
        </div>
        {/* Health is Twilio's: a number in use (an inactive one has no provider to ask). */}
        {phone && active && <ChannelHealthPanel channel={channel} identifier={identifier} canRepair={onEdit !== undefined} />}
      </div>
      {onEdit && (
        <IconButton
          icon={Settings2}
          label={`Configure routing for ${identifier}`}
          aria-describedby={phone && !active ? inactiveNoteId : undefined}
          onClick={onEdit}
        />
      )}
    </li>
  );
}
