import { type ConversationStatus, sendingBlockedMessage } from '@shared/contract/conversations';
import { pictureBlockedMessage } from '@shared/pictures';
import { ArrowLeft, BellOff, MessagesSquare } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { ContactActions } from '@/components/contact-actions';
import { EmptyState } from '@/components/empty-state';
import { Skeleton } from '@/components/skeleton';
import { useSession } from '@/hooks/use-session';
import { ApiError, errorMessage } from '@/lib/api-client';
import type { ConversationFilter } from '@/lib/conversation-cache';
import { usePhoneFormat } from '@/lib/phone-display';
import { useThread, useUpdateConversationStatus } from '../api/conversations-api';
import { useArrivalAnnouncement } from '../hooks/use-arrival-announcement';
import { useMarkReadOnScreen } from '../hooks/use-mark-read';
import { useThreadScroll } from '../hooks/use-thread-scroll';
import { AssigneePicker } from './assignee-picker';
import { MessageBubble } from './message-bubble';
import { MessageComposer } from './message-composer';
import { NoteCard } from './note-card';

export const DELETE_COMING_SOON = 'Deleting messages is coming soon.';

/**
 * The right pane (docs/product.md §2): who the conversation is with, on which of the company's numbers, Mark
 * Open / Mark Closed, the messages oldest first, and the composer. docs/product.md §4: a status the list filter
 * does not show, and closing, deselect the conversation (`onDeselect`).
 */
export function ConversationThread({
  conversationId,
  filter,
  backHref,
  onDeselect,
}: {
  conversationId: string;
  filter: ConversationFilter;
  backHref: string;
  onDeselect: () => void;
}) {
  const [sentAt, setSentAt] = useState<number | null>(null);
  const [notice, setNotice] = useState('');
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
    setNotice('');
    updateStatus.mutate(status, {
      onSuccess: (updated) => {
        if (updated.status === 'CLOSED' || (filter !== 'BOTH' && filter !== updated.status)) onDeselect();
      },
    });
  };
  const pendingStatus = updateStatus.isPending ? updateStatus.variables : null;

  return (
    <section aria-labelledby="thread-title" className="flex min-h-0 min-w-0 flex-1 flex-col">
      <header className="flex flex-wrap items-start justify-between gap-3 border-b border-border p-3 sm:p-4">
        <div className="min-w-0">
          {back}
          <h2 id="thread-title" className="text-lg font-semibold wrap-anywhere text-fg">
            {name}
          </h2>
          <p className="text-sm text-muted">
            {conversation.contact.name.trim() && <span className="mr-3 inline-block">{number}</span>}
            <span className="inline-block">via {format(conversation.channel.identifier)}</span>
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <ContactActions phoneNumber={conversation.contact.phoneNumber} who={name} />
          <AssigneePicker conversationId={conversationId} assignee={conversation.assignee} />
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
            {messages.map((message) =>
              message.type === 'NOTE' ? (
                <NoteCard key={message.id} note={message} viewerId={viewerId} />
              ) : (
                <MessageBubble
                  key={message.id}
                  message={message}
                  contactNumber={contact ? format(contact.phoneNumber) : ''}
                  onDelete={() => setNotice(DELETE_COMING_SOON)}
                />
              ),
            )}
          </ol>
        )}
      </div>
      <p aria-live="polite" className="sr-only">
        {arrival}
      </p>
      <div aria-live="polite" className="px-3 sm:px-4">
        {notice && <p className="mb-2 rounded-lg border border-border bg-surface-muted px-3 py-2 text-sm text-fg">{notice}</p>}
      </div>
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
          <MessageComposer conversationId={conversationId} onSent={() => setSentAt(Date.now())} notesOnly />
        </>
      ) : (
        <MessageComposer
          conversationId={conversationId}
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
