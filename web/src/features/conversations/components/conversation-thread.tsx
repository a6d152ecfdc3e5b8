import { type ConversationStatus, sendingBlockedMessage } from '@shared/contract/conversations';
import { pictureBlockedMessage } from '@shared/pictures';
import { ArrowLeft, BellOff, EllipsisVertical, MessagesSquare } from 'lucide-react';
import { Fragment, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { ContactActions } from '@/components/contact-actions';
import { EmptyState } from '@/components/empty-state';
import { IconButton } from '@/components/icon-button';
import { Skeleton } from '@/components/skeleton';
import { useClockTick } from '@/hooks/use-clock';
import { useSession } from '@/hooks/use-session';
import { ApiError, errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import type { ConversationFilter } from '@/lib/conversation-cache';
import { dayOf, formatDay } from '@/lib/format-date';
import { usePhoneFormat } from '@/lib/phone-display';
import { isNotFound, useThread, useUpdateConversationStatus } from '../api/conversations-api';
import { useArrivalAnnouncement } from '../hooks/use-arrival-announcement';
import { useMarkReadOnScreen } from '../hooks/use-mark-read';
import { useThreadScroll } from '../hooks/use-thread-scroll';
import { AssigneePicker } from './assignee-picker';
import { MessageBubble } from './message-bubble';
import { MessageComposer } from './message-composer';
import { NoteCard } from './note-card';

/**
 * The right pane (docs/product.md §2): who the conversation is with, on which of the company's numbers, Mark
 * Open / Mark Closed, the messages oldest first, and the composer. docs/product.md §4: a status the list filter
 * does not show, and closing, leave the conversation for the next one in the list (`onLeave`; none: deselected).
 */
export function ConversationThread({
  conversationId,
  filter,
  backHref,
  nextConversation,
  onLeave,
  onLostAccess,
}: {
  conversationId: string;
  filter: ConversationFilter;
  backHref: string;
  /** The conversation to move on to, read when the change is asked for (the list may lose this one first). */
  nextConversation: () => string | null;
  onLeave: (next: string | null) => void;
  /** The thread was on screen and the server no longer shows it to this member (docs/product.md: Who sees what). */
  onLostAccess: () => void;
}) {
  const [sentAt, setSentAt] = useState<number | null>(null);
  // On a narrow screen the thread's controls fold behind one button, so the messages keep the room.
  const [actionsOpen, setActionsOpen] = useState(false);
  const actionsId = useId();
  const actionsButton = useRef<HTMLButtonElement>(null);
  const thread = useThread(conversationId, sentAt);
  const updateStatus = useUpdateConversationStatus(conversationId);
  const format = usePhoneFormat();
  const pages = thread.data?.pages ?? [];
  // Pages run newest first; each holds its messages oldest first.
  const messages = [...pages].reverse().flatMap((p) => p.messages);
  const last = messages[messages.length - 1];
  const scroll = useThreadScroll(messages[0]?.id, last?.id, last?.direction === 'OUTBOUND');
  const contact = pages[0]?.contact;
  const name = (contact && (contact.name.trim() || format(contact.phoneNumber))) ?? '';
  const arrival = useArrivalAnnouncement(last, name);
  const viewerId = useSession()?.user.id;
  useMarkReadOnScreen(conversationId, pages[0]?.unreadCount, messages, viewerId);
  // A thread that was shown and now answers 404: taken away (an inbox left, a number routed elsewhere).
  const lostAccess = pages.length > 0 && isNotFound(thread.error);
  const lost = useRef(onLostAccess);
  lost.current = onLostAccess;
  useEffect(() => {
    if (lostAccess) lost.current();
  }, [lostAccess]);

  const back = (
    <Link
      to={backHref}
      className="inline-flex items-center gap-1.5 rounded-lg px-2 py-1.5 text-sm font-medium text-primary hover:bg-surface-muted md:hidden"
    >
      <ArrowLeft aria-hidden="true" className="size-4" />
      Back to conversations
    </Link>
  );

  if (thread.isPending) {
    return (
      <div aria-busy="true" className="flex flex-1 flex-col gap-3 p-4">
        <div>{back}</div>
        <span className="sr-only">Loading conversation…</span>
        <Skeleton className="h-6 w-48 max-w-full" />
        <Skeleton className="h-4 w-64 max-w-full" />
        <Skeleton className="mt-4 h-10 w-2/3" />
        <Skeleton className="ml-auto h-10 w-1/2" />
      </div>
    );
  }
  // A failed background refresh keeps what is on screen; only a thread that never loaded says why.
  if (!pages[0]) {
    const notFound = thread.error instanceof ApiError && thread.error.status === 404;
    return (
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div>{back}</div>
        <Alert tone="error">
          {notFound ? 'This conversation was not found.' : errorMessage(thread.error, 'Failed to load the conversation')}
        </Alert>
      </div>
    );
  }

  const conversation = pages[0];
  const number = format(conversation.contact.phoneNumber);
  const changeStatus = (status: ConversationStatus) => {
    const next = nextConversation();
    updateStatus.mutate(status, {
      onSuccess: (updated) => {
        if (updated.status === 'CLOSED' || (filter !== 'BOTH' && filter !== updated.status)) onLeave(next);
      },
    });
  };
  const pendingStatus = updateStatus.isPending ? updateStatus.variables : null;

  return (
    <section aria-labelledby="thread-title" className="flex min-h-0 min-w-0 flex-1 flex-col">
      {/*
        On a narrow screen (docs/product.md §2.5) the header is one row: back, who, and the actions
        folded behind one button; a wide screen shows the actions as they are.
      */}
      <header className="flex flex-wrap items-center gap-2 border-b border-border p-2 sm:p-3 md:items-start md:justify-between md:gap-3 md:p-4">
        <Link
          to={backHref}
          aria-label="Back to conversations"
          title="Back to conversations"
          className="inline-flex size-9 shrink-0 items-center justify-center rounded-lg text-primary hover:bg-surface-muted md:hidden"
        >
          <ArrowLeft aria-hidden="true" className="size-5" />
        </Link>
        <div className="min-w-0 max-md:flex-1">
          <h2
            id="thread-title"
            className="truncate text-base font-semibold text-fg md:text-lg md:wrap-anywhere md:whitespace-normal"
          >
            {name}
          </h2>
          <p className="truncate text-xs text-muted md:text-sm md:whitespace-normal">
            {conversation.contact.name.trim() && <span className="mr-3 md:inline-block">{number}</span>}
            <span className="md:inline-block">via {format(conversation.channel.identifier)}</span>
          </p>
        </div>
        <IconButton
          ref={actionsButton}
          label="Conversation actions"
          icon={EllipsisVertical}
          aria-expanded={actionsOpen}
          aria-controls={actionsId}
          onClick={() => setActionsOpen((open) => !open)}
          className="md:hidden"
        />
        {/* biome-ignore lint/a11y/useSemanticElements: actions on the conversation, not a form's fields */}
        <div
          id={actionsId}
          role="group"
          aria-label="Conversation actions"
          onKeyDown={(event) => {
            if (event.key !== 'Escape' || !actionsOpen) return;
            setActionsOpen(false);
            actionsButton.current?.focus();
          }}
          className={cn('basis-full flex-wrap items-end gap-2 md:flex md:basis-auto', actionsOpen ? 'flex' : 'hidden')}
        >
          <ContactActions phoneNumber={conversation.contact.phoneNumber} who={name} />
          <AssigneePicker conversationId={conversationId} assignee={conversation.assignee} members={conversation.members} />
          {(['OPEN', 'CLOSED'] as const).map((status) => (
            <Button
              key={status}
              variant="secondary"
              className="min-h-9 px-3"
              disabled={conversation.status === status || updateStatus.isPending}
              pending={pendingStatus === status}
              pendingLabel={status === 'OPEN' ? 'Opening…' : 'Closing…'}
              onClick={() => changeStatus(status)}
            >
              {status === 'OPEN' ? 'Mark Open' : 'Mark Closed'}
            </Button>
          ))}
        </div>
      </header>
      {updateStatus.isError && (
        <div className="px-3 pt-3 sm:px-4">
          <Alert tone="error">{errorMessage(updateStatus.error, 'Failed to update the conversation')}</Alert>
        </div>
      )}
      <div ref={scroll.ref} onScroll={scroll.onScroll} className="min-h-0 flex-1 overflow-y-auto px-3 py-4 sm:px-4">
        {thread.hasNextPage && (
          <div className="mb-4 flex justify-center">
            <Button
              variant="ghost"
              className="min-h-9"
              pending={thread.isFetchingNextPage}
              pendingLabel="Loading…"
              onClick={() => void thread.fetchNextPage()}
            >
              Load earlier messages
            </Button>
          </div>
        )}
        {messages.length === 0 ? (
          <EmptyState icon={MessagesSquare} title="No messages yet" />
        ) : (
          <ol aria-label="Messages" className="flex flex-col gap-3">
            {messages.map((message, i) => {
              const newDay = dayOf(message.createdAt) !== dayOf(messages[i - 1]?.createdAt ?? '');
              const dayHeading = newDay ? <DayHeading iso={message.createdAt} /> : undefined;
              return (
                <Fragment key={message.id}>
                  {newDay && <DaySeparator iso={message.createdAt} />}
                  {message.type === 'NOTE' ? (
                    <NoteCard note={message} viewerId={viewerId} dayHeading={dayHeading} />
                  ) : (
                    <MessageBubble
                      message={message}
                      contactNumber={contact ? format(contact.phoneNumber) : ''}
                      dayHeading={dayHeading}
                    />
                  )}
                </Fragment>
              );
            })}
          </ol>
        )}
      </div>
      <p aria-live="polite" className="sr-only">
        {arrival}
      </p>
      {conversation.optedOut ? (
        <>
          <div className="flex items-start gap-3 border-t border-border bg-surface-muted p-4 text-sm text-fg">
            <BellOff aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted" />
            <p>
              {name} opted out of texts from {format(conversation.channel.identifier)}. You can send again once they text START to
              this number.
            </p>
          </div>
          {/* The team can still talk about the customer. */}
          <MessageComposer
            conversationId={conversationId}
            members={conversation.members}
            onSent={() => setSentAt(Date.now())}
            notesOnly
          />
        </>
      ) : (
        <MessageComposer
          conversationId={conversationId}
          members={conversation.members}
          onSent={() => setSentAt(Date.now())}
          blockedReason={
            conversation.sendingBlockedBy &&
            sendingBlockedMessage(conversation.sendingBlockedBy, format(conversation.channel.identifier))
          }
          picturesBlockedReason={
            conversation.picturesBlockedBy &&
            pictureBlockedMessage(conversation.picturesBlockedBy, format(conversation.channel.identifier))
          }
        />
      )}
    </section>
  );
}

/**
 * Where a new day of the thread begins: "Today", "Yesterday" or the date (it turns over at midnight
 * while on screen), drawn between the messages for the eye. A list may hold only its items, so the
 * line is hidden from assistive technology, and the day's first message carries the same words as a
 * heading (DayHeading): days can be skimmed by heading, and the list counts only messages.
 */
function DaySeparator({ iso }: { iso: string }) {
  useClockTick();
  return (
    <li aria-hidden="true" className="flex items-center gap-3 py-1">
      <span className="h-px flex-1 bg-border" />
      <span className="text-xs font-medium text-muted">
        <time dateTime={dayOf(iso)}>{formatDay(iso)}</time>
      </span>
      <span className="h-px flex-1 bg-border" />
    </li>
  );
}

/** The day's heading inside its first message, for assistive technology only (DaySeparator draws it). */
function DayHeading({ iso }: { iso: string }) {
  useClockTick();
  return (
    // Words only: the message's own <time> stays its first.
    <h3 className="sr-only">{formatDay(iso)}</h3>
  );
}
