import type { Message } from '@shared/contract/conversations';
import { canResend, canRetry } from '@shared/message-status';
import { AlertCircle, Check, CheckCheck, Clock, EllipsisVertical, Info, RotateCw } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { type ReactNode, useRef, useState } from 'react';
import { RelativeTime } from '@/components/relative-time';
import { useSession } from '@/hooks/use-session';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { useRetryMessage } from '../api/conversations-api';
import { type DeliveryStatus, deliveryStatus, failureReason } from './delivery-status';
import { MessageDetailsDialog } from './message-details-dialog';
import { MessageMediaList } from './message-media';
import { saidBy, senderName } from './sender';

const DELIVERY_ICON = { Sending: Clock, Sent: Check, Delivered: CheckCheck, Failed: AlertCircle } as const;

const MENU_ITEM =
  'flex cursor-default items-center gap-2 rounded-md px-3 py-2 text-sm text-fg outline-none select-none data-highlighted:bg-surface-muted';

/**
 * One message: inbound on the left, outbound on the right with who sent it ('You', or the colleague),
 * its delivery (docs/product.md §4) and, when it failed, why — and Retry (docs/product.md: Retry).
 * Its menu offers Details only: a text cannot be unsent, so it stays in the team's record of what the
 * customer was told (docs/product.md §2.5).
 */
export function MessageBubble({
  message,
  contactNumber,
  dayHeading,
}: {
  message: Message;
  /** The contact's number as the app writes numbers: pictures are "Photo from" or "Photo sent to" it. */
  contactNumber: string;
  /** The first message of a day carries the day's heading for assistive technology. */
  dayHeading?: ReactNode;
}) {
  const [detailsOpen, setDetailsOpen] = useState(false);
  // Details opens once the menu has given focus back to its button, so closing Details returns it there.
  const detailsChosen = useRef(false);
  const sender = senderName(message, useSession()?.user.id);
  const outbound = message.direction === 'OUTBOUND';
  const delivery = outbound ? deliveryStatus(message) : null;
  const reason = delivery === 'Failed' ? failureReason(message) : null;
  return (
    <li className={cn('flex items-start gap-1', outbound ? 'flex-row-reverse' : 'flex-row')}>
      {dayHeading}
      <div className={cn('flex max-w-[85%] min-w-0 flex-col gap-1 sm:max-w-[70%]', outbound ? 'items-end' : 'items-start')}>
        <p className="sr-only">{saidBy(message, sender)}</p>
        {message.media.length > 0 && <MessageMediaList message={message} contactNumber={contactNumber} />}
        {/* A message of pictures only shows only them. */}
        {(message.body !== '' || message.media.length === 0) && (
          <p
            className={cn(
              'rounded-2xl px-3.5 py-2 text-sm wrap-anywhere whitespace-pre-wrap',
              !outbound && 'rounded-bl-sm border border-border bg-surface text-fg',
              outbound &&
                (delivery === 'Failed'
                  ? 'rounded-br-sm border border-danger/50 bg-danger-soft text-fg'
                  : 'rounded-br-sm bg-primary text-primary-fg'),
            )}
          >
            {message.body}
          </p>
        )}
        <p className="flex flex-wrap items-center gap-x-2 text-xs text-muted">
          {/* Heard already, before the text. */}
          {sender && (
            <span aria-hidden="true" className="font-medium text-fg">
              {sender}
            </span>
          )}
          <RelativeTime iso={message.createdAt} />
          {delivery && <Delivery status={delivery} />}
        </p>
        {reason && <p className="text-xs font-medium text-danger">{reason}</p>}
        {message.resentAs ? (
          <p className="inline-flex items-center gap-1 text-xs text-muted">
            <RotateCw aria-hidden="true" className="size-3.5" />
            Sent again below
          </p>
        ) : (
          sendable(message) && <RetryButton message={message} />
        )}
      </div>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger
          aria-label="Message actions"
          title="Message actions"
          className="inline-flex size-8 shrink-0 items-center justify-center rounded-lg text-muted hover:bg-surface-muted hover:text-fg data-[state=open]:bg-surface-muted"
        >
          <EllipsisVertical aria-hidden="true" className="size-4" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            onCloseAutoFocus={() => {
              if (!detailsChosen.current) return;
              detailsChosen.current = false;
              setDetailsOpen(true);
            }}
            align={outbound ? 'end' : 'start'}
            sideOffset={4}
            className="z-40 min-w-36 rounded-lg border border-border bg-surface p-1 shadow-lg"
          >
            <DropdownMenu.Item
              className={MENU_ITEM}
              onSelect={() => {
                detailsChosen.current = true;
              }}
            >
              <Info aria-hidden="true" className="size-4 text-muted" />
              Details
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <MessageDetailsDialog message={message} sender={sender} open={detailsOpen} onOpenChange={setDetailsOpen} />
    </li>
  );
}

/**
 * Retry: a text Twilio never took is sent again as itself; one that failed after Twilio took it
 * (undelivered) as a new message with its words, since Twilio cannot send a message twice.
 */
function sendable(message: Message): boolean {
  const facts = { ...message, providerMessageId: message.smsMessage.providerMessageId };
  return canRetry(facts) || canResend(facts);
}

function RetryButton({ message }: { message: Message }) {
  const retry = useRetryMessage(message.conversationId, message.id);
  return (
    <>
      <button
        type="button"
        onClick={() => retry.mutate()}
        disabled={retry.isPending}
        className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs font-medium text-fg hover:bg-surface-muted disabled:opacity-60"
      >
        <RotateCw aria-hidden="true" className="size-3.5" />
        {retry.isPending ? 'Retrying…' : 'Retry'}
      </button>
      {retry.isError && (
        <p role="alert" className="text-xs text-danger">
          {errorMessage(retry.error, 'Failed to retry message')}
        </p>
      )}
    </>
  );
}

function Delivery({ status }: { status: DeliveryStatus }) {
  const Icon = DELIVERY_ICON[status];
  return (
    <span className={cn('inline-flex items-center gap-1', status === 'Failed' && 'font-semibold text-danger')}>
      <Icon aria-hidden="true" className="size-3.5" />
      {status}
    </span>
  );
}
