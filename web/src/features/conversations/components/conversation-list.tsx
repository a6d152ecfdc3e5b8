import type { Conversation } from '@shared/contract/conversations';
import { AlertCircle, Inbox, MessagesSquare } from 'lucide-react';
import { Link } from 'react-router';
import { Alert } from '@/components/alert';
import { Avatar } from '@/components/avatar';
import { Button } from '@/components/button';
import { EmptyState } from '@/components/empty-state';
import { RelativeTime } from '@/components/relative-time';
import { Skeleton } from '@/components/skeleton';
import { useSession } from '@/hooks/use-session';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import type { ConversationFilter } from '@/lib/conversation-cache';
import { messagePreview, previewSender } from '@/lib/message-preview';
import { usePhoneFormat } from '@/lib/phone-display';
import { type AssigneeFilter, listedConversations, useConversationList } from '../api/conversations-api';
import { CHOSEN_FROM_LIST } from '../hooks/use-conversation-selection';

const FILTERS: { value: ConversationFilter; label: string }[] = [
  { value: 'OPEN', label: 'Open' },
  { value: 'CLOSED', label: 'Closed' },
  { value: 'BOTH', label: 'Both' },
];

const ASSIGNEE_FILTERS: { value: AssigneeFilter; label: string }[] = [
  { value: 'me', label: 'Mine' },
  { value: 'unassigned', label: 'Unassigned' },
  { value: 'all', label: 'All' },
];

/** A row of toggle buttons, one pressed: the status and assignee filters look and work alike. */
function FilterGroup<T extends string>({
  legend,
  options,
  value,
  onChange,
}: {
  legend: string;
  options: { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="flex gap-1 rounded-lg bg-surface-muted p-1">
      <legend className="sr-only">{legend}</legend>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={value === option.value}
          onClick={() => onChange(option.value)}
          className={cn(
            'min-h-9 flex-1 rounded-md px-3 text-sm font-semibold transition-colors',
            value === option.value ? 'bg-surface text-fg shadow-sm' : 'text-muted hover:text-fg',
          )}
        >
          {option.label}
        </button>
      ))}
    </fieldset>
  );
}

/** 'open conversations', 'closed conversation', 'conversations': the filter in the count's words. */
const noun = (filter: ConversationFilter, count: number) =>
  `${filter === 'BOTH' ? '' : `${filter.toLowerCase()} `}conversation${count === 1 ? '' : 's'}`;

const EMPTY: Record<ConversationFilter, { title: string; text: string }> = {
  OPEN: { title: 'No open conversations', text: 'A text to one of your numbers opens a conversation here.' },
  CLOSED: { title: 'No closed conversations', text: 'Conversations you mark closed are kept here.' },
  BOTH: { title: 'No conversations yet', text: 'When someone texts one of your numbers, the conversation appears here.' },
};

/**
 * docs/product.md §2 left list: Open / Closed / Both, how many are shown of the total, newest activity first,
 * and Load More while the server has more.
 */
export function ConversationList({
  filter,
  assignee = 'all',
  selectedId,
  hrefOf,
  onFilter,
  onAssignee = () => {},
  hasSmsChannel,
}: {
  filter: ConversationFilter;
  /** Mine / Unassigned / All. */
  assignee?: AssigneeFilter;
  selectedId: string | null;
  hrefOf: (id: string) => string;
  onFilter: (filter: ConversationFilter) => void;
  onAssignee?: (assignee: AssigneeFilter) => void;
  /** False once the channels are known and none can text: the empty list says where to add one. */
  hasSmsChannel: boolean;
}) {
  const list = useConversationList(filter, assignee);
  const conversations = listedConversations(list.data?.pages);
  const total = list.data?.pages[0]?.total ?? 0;
  // A failed background refresh keeps the list on screen; only a list that never loaded says why.
  const failed = list.isError && !list.data;

  return (
    <section aria-labelledby="conversation-list-title" className="flex min-h-0 min-w-0 flex-1 flex-col">
      <div className="border-b border-border p-3 sm:p-4">
        <h2 id="conversation-list-title" className="sr-only">
          Conversation list
        </h2>
        <div className="flex flex-col gap-2">
          <FilterGroup legend="Show conversations" options={FILTERS} value={filter} onChange={onFilter} />
          <FilterGroup legend="Assigned to" options={ASSIGNEE_FILTERS} value={assignee} onChange={onAssignee} />
        </div>
        <p aria-live="polite" className="mt-2 text-xs text-muted">
          {list.isPending
            ? 'Loading conversations…'
            : failed
              ? ''
              : `Showing ${conversations.length} of ${total} ${noun(filter, total)}`}
        </p>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {list.isPending ? (
          <ul aria-hidden="true" className="divide-y divide-border">
            {[0, 1, 2, 3].map((i) => (
              <li key={i} className="flex flex-col gap-2 p-4">
                <Skeleton className="h-4 w-40 max-w-full" />
                <Skeleton className="h-3 w-56 max-w-full" />
              </li>
            ))}
          </ul>
        ) : failed ? (
          <div className="p-4">
            <Alert tone="error">{errorMessage(list.error, 'Failed to load conversations')}</Alert>
          </div>
        ) : conversations.length === 0 ? (
          hasSmsChannel ? (
            <EmptyState icon={MessagesSquare} title={EMPTY[filter].title}>
              {EMPTY[filter].text}
            </EmptyState>
          ) : (
            <EmptyState icon={Inbox} title="No SMS channel yet">
              To text with your contacts, connect Twilio in{' '}
              <Link to="/settings/providers" className="font-medium text-primary underline">
                Settings → Providers
              </Link>{' '}
              and import a number that can send SMS; it is listed in{' '}
              <Link to="/settings/channels" className="font-medium text-primary underline">
                Settings → Channels
              </Link>
              .
            </EmptyState>
          )
        ) : (
          <ul className="divide-y divide-border">
            {conversations.map((conversation) => (
              <li key={conversation.id}>
                <ConversationItem
                  conversation={conversation}
                  href={hrefOf(conversation.id)}
                  selected={conversation.id === selectedId}
                />
              </li>
            ))}
          </ul>
        )}
        {list.hasNextPage && (
          <div className="flex justify-center p-3">
            <Button
              variant="secondary"
              pending={list.isFetchingNextPage}
              pendingLabel="Loading…"
              onClick={() => void list.fetchNextPage()}
            >
              Load More
            </Button>
          </div>
        )}
      </div>
    </section>
  );
}

function ConversationItem({ conversation, href, selected }: { conversation: Conversation; href: string; selected: boolean }) {
  const format = usePhoneFormat();
  const name = conversation.contact.name.trim() || format(conversation.contact.phoneNumber);
  const open = conversation.status === 'OPEN';
  const last = conversation.lastMessage;
  const unread = conversation.unreadCount > 0;
  const viewerId = useSession()?.user.id;
  return (
    <Link
      to={href}
      state={CHOSEN_FROM_LIST}
      aria-current={selected ? 'page' : undefined}
      className={cn('flex flex-col gap-1 px-4 py-3 hover:bg-surface-muted', selected && 'bg-primary-soft hover:bg-primary-soft')}
    >
      <span className="flex items-center gap-2">
        <span aria-hidden="true" className={cn('size-2.5 shrink-0 rounded-full', open ? 'bg-success' : 'bg-danger')} />
        <span className="sr-only">{open ? 'Open:' : 'Closed:'}</span>
        <span className={cn('min-w-0 flex-1 truncate text-fg', unread ? 'font-bold' : 'font-semibold')}>{name}</span>
        <RelativeTime
          iso={conversation.lastMessageAt}
          className={cn('shrink-0 text-xs', unread ? 'font-bold text-fg' : 'text-muted')}
        />
      </span>
      <span className="flex items-center gap-2 pl-4.5 text-sm text-muted">
        {/* The last text failed (docs/product.md: Retry): the thread says why and offers Retry. */}
        {last?.failed && (
          <span className="inline-flex shrink-0 items-center gap-1 text-xs font-semibold text-danger">
            <AlertCircle aria-hidden="true" className="size-3.5" />
            Failed<span className="sr-only">:</span>
          </span>
        )}
        <span className={cn('min-w-0 flex-1 truncate', unread && 'font-semibold text-fg')}>
          {last ? `${previewSender(last, viewerId)}${messagePreview(last)}` : 'No messages yet'}
        </span>
        {unread ? (
          <span className="shrink-0 rounded-full bg-primary px-2 text-xs font-bold text-primary-fg">
            {conversation.unreadCount} <span className="sr-only">unread</span>
          </span>
        ) : (
          <span className="shrink-0 rounded-full bg-surface-muted px-2 text-xs font-semibold text-muted">
            {conversation.messageCount}
            <span className="sr-only"> {conversation.messageCount === 1 ? 'message' : 'messages'}</span>
          </span>
        )}
        <AssigneeMark assignee={conversation.assignee} />
      </span>
    </Link>
  );
}

/** Who owns the conversation: their initial, named for the pointer and the screen reader; a dashed ring when nobody does. */
function AssigneeMark({ assignee }: { assignee: Conversation['assignee'] }) {
  if (!assignee) {
    return (
      // Silent for screen readers: a row says whose it is only when someone owns it.
      <span aria-hidden="true" title="Unassigned" className="size-6 shrink-0 rounded-full border border-dashed border-border" />
    );
  }
  return (
    <span title={`Assigned to ${assignee.name}`} className="shrink-0">
      <Avatar name={assignee.name} className="size-6 text-xs" />
      <span className="sr-only">Assigned to {assignee.name}</span>
    </span>
  );
}
