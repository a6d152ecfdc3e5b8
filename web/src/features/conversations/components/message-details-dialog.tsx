import type { Message } from '@shared/contract/conversations';
import { Button } from '@/components/button';
import { Dialog, DialogBody, DialogClose, DialogFooter } from '@/components/dialog';
import { deliveryStatus, failureReason } from './delivery-status';
import { directionText } from './sender';

const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** docs/product.md §2 message details modal: who sent it, provider status, provider message id, segments and the error. */
export function MessageDetailsDialog({
  message,
  sender,
  open,
  onOpenChange,
}: {
  message: Message;
  /** senderName() of the message. */
  sender: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { smsMessage } = message;
  const outbound = message.direction === 'OUTBOUND';
  const rows: [string, string][] = [
    ['Direction', directionText(message, sender)],
    ...(outbound ? [['Delivery', deliveryStatus(message)] as [string, string]] : []),
    ['Time', DATE_TIME.format(new Date(message.createdAt))],
    ['Provider status', smsMessage.providerStatus ?? 'Not yet reported'],
    ['Provider message ID', smsMessage.providerMessageId ?? 'Not assigned yet'],
    ['Segments', String(smsMessage.segments)],
    ['Error', failureReason(message) ?? 'None'],
  ];
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Message details">
      <DialogBody>
        <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_minmax(0,1fr)] sm:gap-y-3">
          {rows.map(([term, value]) => (
            <div key={term} className="contents">
              <dt className="font-medium text-muted max-sm:mt-2">{term}</dt>
              <dd className="wrap-anywhere text-fg">{value}</dd>
            </div>
          ))}
        </dl>
      </DialogBody>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="secondary">Close</Button>
        </DialogClose>
      </DialogFooter>
    </Dialog>
  );
}
