import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MessagesSquare, SquarePen } from 'lucide-react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { Surface } from '@/components/surface';
import { cn } from '@/lib/cn';
import { conversationKeys } from '@/lib/conversation-cache';
import { channelsQuery } from '@/lib/settings-queries';
import { useConversationSelection } from '../hooks/use-conversation-selection';
import { ConversationList } from './conversation-list';
import { ConversationThread } from './conversation-thread';
import { NewMessageDialog } from './new-message-dialog';

/** Said when an open thread was taken away (docs/product.md: Who sees what). */
export const LOST_ACCESS = 'You no longer have access to this conversation.';

/**
 * docs/product.md §2 Conversations: the list on the left, the selected thread on the right. On a narrow screen
 * they stack: the list, or the thread with a way back.
 */
export function ConversationsPage() {
  const { filter, assignee, selectedId, href, setFilter, setAssignee, neighbourOf, moveOn } = useConversationSelection();
  const channels = useQuery({
    ...channelsQuery(),
    select: (list) => list.some((c) => c.type === 'PHONE' && c.status === 'ACTIVE' && c.capabilities.sms),
  });
  // New message is open while the address says `new=1` (lib/contact-actions: a contact's Text action links here).
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const composing = params.get('new') === '1';
  const openNewMessage = () => navigate(`${href(selectedId)}${href(selectedId).includes('?') ? '&' : '?'}new=1`);
  // A thread taken away while open closes: back to the list, which says why until the next step.
  const queryClient = useQueryClient();
  const lostAccess = (useLocation().state as { lostAccess?: boolean } | null)?.lostAccess === true;
  const closeLostThread = (id: string) => {
    queryClient.removeQueries({ queryKey: conversationKeys.thread(id), exact: true });
    navigate(href(null), { replace: true, state: { lostAccess: true } });
  };

  return (
    <>
      {/* On a narrow screen an open thread is the page: its messages get the room (docs/product.md §2.5). */}
      <div className={cn(selectedId && 'max-md:hidden')}>
        <PageHeader
          title="Conversations"
          actions={
            <Button onClick={openNewMessage}>
              <SquarePen aria-hidden="true" className="size-4" />
              New message
            </Button>
          }
        />
      </div>
      {selectedId && <h1 className="sr-only md:hidden">Conversations</h1>}
      {lostAccess && (
        <div className="mb-3">
          <Alert tone="warning">{LOST_ACCESS}</Alert>
        </div>
      )}
      <NewMessageDialog
        open={composing}
        onOpenChange={(open) => (open ? openNewMessage() : navigate(href(selectedId), { replace: true }))}
        initialTo={params.get('to') ?? undefined}
        onStarted={(id) => navigate(href(id), { replace: true })}
      />
      {/*
        The screen less the shell's header and padding (and the page's header, but for an open thread on
        a narrow screen), and less the call widget's corner (lib/floating-dock).
      */}
      <Surface
        className={cn(
          'flex min-h-[26rem] overflow-hidden lg:h-[calc(100dvh-10rem-var(--floating-dock,0px))]',
          selectedId
            ? 'h-[calc(100dvh-7.25rem-var(--floating-dock,0px))] sm:h-[calc(100dvh-8.25rem-var(--floating-dock,0px))] md:h-[calc(100dvh-12rem-var(--floating-dock,0px))]'
            : 'h-[calc(100dvh-11rem-var(--floating-dock,0px))] sm:h-[calc(100dvh-12rem-var(--floating-dock,0px))]',
        )}
      >
        <div
          className={cn(
            'min-h-0 w-full flex-col md:flex md:w-80 md:shrink-0 md:border-r md:border-border',
            selectedId ? 'hidden' : 'flex',
          )}
        >
          <ConversationList
            filter={filter}
            assignee={assignee}
            selectedId={selectedId}
            hrefOf={(id) => href(id)}
            onFilter={setFilter}
            onAssignee={setAssignee}
            hasSmsChannel={channels.data !== false}
          />
        </div>
        <div className={cn('min-h-0 min-w-0 flex-1 flex-col', selectedId ? 'flex' : 'hidden md:flex')}>
          {selectedId ? (
            <ConversationThread
              key={selectedId}
              conversationId={selectedId}
              filter={filter}
              backHref={href(null)}
              nextConversation={() => neighbourOf(selectedId)}
              onLeave={moveOn}
              onLostAccess={() => closeLostThread(selectedId)}
            />
          ) : (
            <div className="flex flex-1 items-center justify-center">
              <EmptyState icon={MessagesSquare} title="No conversation selected">
                Choose a conversation from the list to read it and reply.
              </EmptyState>
            </div>
          )}
        </div>
      </Surface>
    </>
  );
}
