import { DEFAULT_COMPANY_NAME } from '@shared/constants';
import { useQuery } from '@tanstack/react-query';
import {
  ArrowRight,
  Check,
  Inbox,
  MessagesSquare,
  PhoneCall,
  Plug,
  TriangleAlert,
  UserPlus,
  UsersRound,
  Voicemail,
  X,
} from 'lucide-react';
import { useRef } from 'react';
import { Link } from 'react-router';
import { Card } from '@/components/card';
import { useSession } from '@/hooks/use-session';
import { HEALTH_WORDS } from '@/lib/channel-health';
import { cn } from '@/lib/cn';
import { usePhoneFormat } from '@/lib/phone-display';
import { plural } from '@/lib/plural';
import { channelsQuery, inboxesQuery, providersQuery, usersQuery } from '@/lib/settings-queries';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useChannelsNeedingAttention, useNewVoicemailCount, useOpenConversationCount } from '../api/dashboard-api';
import { useGettingStartedDismissed } from '../hooks/use-getting-started-dismissed';

/**
 * docs/product.md §2: the first design showed static counters (0, 0, 1); here Active Conversations counts the open
 * conversations, Connected Channels the ACTIVE channels and Team Members the company's users. While
 * a figure loads, that static value holds its place (a new company's real figures), so nothing
 * jumps; if it cannot load, a dash.
 */
function useCounters() {
  const channels = useQuery({
    ...channelsQuery(),
    select: (list) => list.filter((c) => c.status === 'ACTIVE').length,
  });
  const users = useQuery({ ...usersQuery(), select: (list) => list.length });
  const conversations = useOpenConversationCount();
  const voicemails = useNewVoicemailCount();
  const figure = (query: { data?: number; isError: boolean }, fallback: number) =>
    query.isError ? undefined : (query.data ?? fallback);
  return [
    {
      label: 'Active Conversations',
      value: figure(conversations, 0),
      busy: conversations.isPending,
      icon: MessagesSquare,
    },
    { label: 'Connected Channels', value: figure(channels, 0), busy: channels.isPending, icon: PhoneCall },
    { label: 'Team Members', value: figure(users, 1), busy: users.isPending, icon: UsersRound },
    {
      label: 'New Voicemails',
      value: figure(voicemails, 0),
      busy: voicemails.isPending,
      icon: Voicemail,
      link: { to: '/calls?voicemail=true', text: 'Listen in Call History' },
    },
  ];
}

const STEPS = [
  {
    key: 'provider',
    title: 'Connect a provider',
    text: 'Link your Twilio account to bring in your phone numbers.',
    to: '/settings/providers',
    icon: Plug,
  },
  {
    key: 'inbox',
    title: 'Create an inbox',
    text: 'Give your team a shared inbox and route numbers to it.',
    to: '/settings/inboxes',
    icon: Inbox,
  },
  {
    key: 'team',
    title: 'Invite team members',
    text: 'Bring your colleagues in to answer calls and messages.',
    to: '/settings/team',
    icon: UserPlus,
  },
] as const;

/** Which Getting Started steps are done, from what is really there; a step whose data cannot load stays open. */
function useCompletedSteps(): Record<(typeof STEPS)[number]['key'], boolean> {
  const providers = useQuery({ ...providersQuery(), select: (list) => list.length > 0 });
  const inboxes = useQuery({ ...inboxesQuery(), select: (list) => list.length > 0 });
  const team = useQuery({ ...usersQuery(), select: (list) => list.length > 1 });
  return { provider: providers.data === true, inbox: inboxes.data === true, team: team.data === true };
}

export function DashboardPage() {
  const session = useSession();
  const counters = useCounters();
  useDocumentTitle('Dashboard');
  const heading = useRef<HTMLHeadingElement>(null);
  if (!session) return null;
  return (
    <div className="mx-auto max-w-5xl">
      <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold tracking-tight text-fg focus:outline-none">
        Welcome, {session.user.name}
      </h1>
      <p className="mt-1 text-sm text-muted">Here is an overview of {session.company.name || DEFAULT_COMPANY_NAME}.</p>

      <ChannelHealthWarning />

      <section aria-label="Overview" className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {counters.map(({ label, value, busy, icon: Icon, link }) => (
          <Card key={label} className="flex items-center gap-4 p-5">
            <span className="flex size-11 items-center justify-center rounded-lg bg-primary-soft text-primary">
              <Icon aria-hidden="true" className="size-5" />
            </span>
            <div aria-busy={busy || undefined}>
              <p className="text-sm text-muted">{label}</p>
              {value === undefined ? (
                <p className="text-2xl font-bold text-muted">
                  <span aria-hidden="true">—</span>
                  <span className="sr-only">Unavailable</span>
                </p>
              ) : (
                <p className="text-2xl font-bold text-fg">{value}</p>
              )}
              {link && (
                <Link
                  to={link.to}
                  className="mt-1 inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-2 hover:underline"
                >
                  {link.text}
                  <ArrowRight aria-hidden="true" className="size-4" />
                </Link>
              )}
            </div>
          </Card>
        ))}
      </section>

      <GettingStarted userId={session.user.id} onDismissed={() => heading.current?.focus()} />
    </div>
  );
}

/**
 * The three first steps, ticked as they are done. Once all are, it can be dismissed, and stays so
 * for this user (docs/product.md §2.4); until then it stays, as the way to finish setting up.
 */
function GettingStarted({ userId, onDismissed }: { userId: string; onDismissed: () => void }) {
  const completed = useCompletedSteps();
  const { dismissed, dismiss } = useGettingStartedDismissed(userId);
  const allDone = STEPS.every(({ key }) => completed[key]);
  if (dismissed) return null;
  return (
    <Card className="mt-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold text-fg">Getting Started</h2>
        {allDone && (
          // A plain button, as the shell's: the Button component here would reshape the first load's chunks.
          <button
            type="button"
            aria-label="Dismiss Getting Started"
            onClick={() => {
              dismiss();
              onDismissed();
            }}
            className="inline-flex min-h-9 items-center gap-2 rounded-lg px-3 text-sm font-semibold text-muted hover:bg-surface-muted hover:text-fg"
          >
            <X aria-hidden="true" className="size-4" />
            Dismiss
          </button>
        )}
      </div>
      {allDone && <p className="mt-1 text-sm text-muted">All set: every step is done.</p>}
      <ol className="mt-4 flex flex-col gap-3">
        {STEPS.map(({ key, title, text, to, icon: Icon }, index) => (
          <li key={key}>
            <Link to={to} className="flex items-start gap-4 rounded-lg border border-border p-4 hover:bg-surface-muted">
              <span
                className={cn(
                  'flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-bold',
                  completed[key] ? 'bg-success-soft text-success' : 'bg-primary text-primary-fg',
                )}
              >
                {completed[key] ? <Check aria-hidden="true" className="size-4" /> : index + 1}
              </span>
              <span className="min-w-0">
                <span className="flex flex-wrap items-center gap-2 font-semibold text-fg">
                  <Icon aria-hidden="true" className="size-4 text-muted" />
                  {title}
                  {completed[key] && <span className="text-xs font-semibold text-success">Done</span>}
                </span>
                <span className="mt-0.5 block text-sm text-muted">{text}</span>
              </span>
            </Link>
          </li>
        ))}
      </ol>
    </Card>
  );
}

/**
 * A number Twilio no longer sends to us loses calls and texts without anyone noticing; the
 * Dashboard says so, by number, and leads to the Channels page where it is repaired.
 */
function ChannelHealthWarning() {
  const channels = useChannelsNeedingAttention();
  const formatPhone = usePhoneFormat();
  const list = channels.data ?? [];
  // A status region, present from the start, so a warning that appears (a check, an event) is read out.
  return (
    <div role="status" className="empty:hidden">
      {list.length > 0 && (
        <div className="mt-6 flex gap-3 rounded-lg border border-warning-border bg-warning-soft px-4 py-3 text-sm text-warning-fg">
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          <div className="min-w-0">
            <p className="font-semibold">
              {list.length === 1 ? 'A phone number needs attention' : `${plural(list.length, 'phone number')} need attention`}:
              calls or texts may not reach you.
            </p>
            <ul className="mt-1">
              {list.map((channel) => (
                <li key={channel.id} className="wrap-anywhere">
                  <span className="font-medium tabular-nums">{formatPhone(channel.identifier)}</span>:{' '}
                  {HEALTH_WORDS[channel.health.status].label}
                </li>
              ))}
            </ul>
            <Link
              to="/settings/channels"
              className="mt-2 inline-flex items-center gap-1 font-semibold underline underline-offset-2"
            >
              Check and repair in Channels
              <ArrowRight aria-hidden="true" className="size-4" />
            </Link>
          </div>
        </div>
      )}
    </div>
  );
}
