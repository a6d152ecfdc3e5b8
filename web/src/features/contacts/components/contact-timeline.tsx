import type { TimelineItem } from '@shared/contract/timeline';
import { MessageSquare, PhoneIncoming, PhoneMissed, PhoneOutgoing, StickyNote, Voicemail } from 'lucide-react';
import type { ComponentType } from 'react';
import { Alert } from '@/components/alert';
import { Badge } from '@/components/badge';
import { Button } from '@/components/button';
import { Skeleton } from '@/components/skeleton';
import { errorMessage } from '@/lib/api-client';
import { formatDurationSeconds } from '@/lib/format-duration';
import { formatRelativeTime } from '@/lib/relative-time';
import { useContactTimeline } from '../api/contacts-api';

/**
 * docs/product.md: Contact timeline. The contact's texts, notes, calls and voicemails in one list,
 * newest first, a page at a time ("Load older"). `now` is for the tests.
 */
export function ContactTimeline({ contactId, now }: { contactId: string; now?: Date }) {
  const timeline = useContactTimeline(contactId);
  const items = timeline.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section aria-labelledby={`${contactId}-activity`} className="flex flex-col gap-2">
      <h3 id={`${contactId}-activity`} className="text-sm font-semibold text-fg">
        Activity
      </h3>
      {timeline.isPending ? (
        <div role="status" className="flex flex-col gap-2">
          <span className="sr-only">Loading activity...</span>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-10 w-full" />
          ))}
        </div>
      ) : timeline.isError && items.length === 0 ? (
        <Alert tone="error">{errorMessage(timeline.error, 'Failed to load activity')}</Alert>
      ) : items.length === 0 ? (
        <p className="text-sm text-muted">No texts or calls with this contact yet.</p>
      ) : (
        <>
          <ul aria-label="Activity" className="flex flex-col divide-y divide-border rounded-lg border border-border">
            {items.map((item) => (
              <TimelineRow key={`${item.kind}-${item.id}`} item={item} now={now} />
            ))}
          </ul>
          {timeline.isFetchNextPageError && (
            <Alert tone="error">{errorMessage(timeline.error, 'Failed to load older activity')}</Alert>
          )}
          {timeline.hasNextPage && (
            <Button
              variant="secondary"
              className="self-center"
              pending={timeline.isFetchingNextPage}
              pendingLabel="Loading older..."
              onClick={() => void timeline.fetchNextPage()}
            >
              Load older
            </Button>
          )}
        </>
      )}
    </section>
  );
}

interface RowView {
  icon: ComponentType<{ className?: string; 'aria-hidden'?: 'true' }>;
  title: string;
  detail: string;
  isNew?: boolean;
}

/** What a row says for each kind. */
export function rowView(item: TimelineItem): RowView {
  switch (item.kind) {
    case 'TEXT': {
      const { message } = item;
      const inbound = message.direction === 'INBOUND';
      const pictures = message.media.length ? `${message.media.length === 1 ? 'Photo' : `${message.media.length} photos`}` : '';
      return {
        icon: MessageSquare,
        title: inbound ? 'Text received' : `Text sent${message.sentBy ? ` by ${message.sentBy.name}` : ''}`,
        detail: message.body || pictures,
      };
    }
    case 'NOTE':
      return {
        icon: StickyNote,
        title: `Note${item.message.sentBy ? ` by ${item.message.sentBy.name}` : ''}`,
        detail: item.message.body,
      };
    case 'CALL': {
      const { call } = item;
      const inbound = call.direction === 'INBOUND';
      const answered = call.callStatus === 'COMPLETED' || call.callStatus === 'IN_PROGRESS';
      if (inbound && !answered && call.callStatus !== 'RINGING') return { icon: PhoneMissed, title: 'Missed call', detail: '' };
      const who = call.answeredBy ? `${inbound ? 'Answered by' : 'Placed by'} ${call.answeredBy.name}` : '';
      const outcome = answered ? formatDurationSeconds(call.durationSeconds) : OUTCOMES[call.callStatus];
      return {
        icon: inbound ? PhoneIncoming : PhoneOutgoing,
        title: inbound ? 'Inbound call' : 'Outbound call',
        detail: [who, outcome].filter(Boolean).join(' · '),
      };
    }
    case 'VOICEMAIL':
      return {
        icon: Voicemail,
        title: 'Voicemail',
        // Its length before it is played (Call History plays it).
        detail: item.call.voicemail ? formatDurationSeconds(item.call.voicemail.durationSeconds) : '',
        isNew: item.call.voicemail ? !item.call.voicemail.listened : false,
      };
  }
}

const OUTCOMES: Record<string, string> = {
  FAILED: 'Failed',
  NO_ANSWER: 'No answer',
  BUSY: 'Busy',
  RINGING: 'Ringing',
};

function TimelineRow({ item, now }: { item: TimelineItem; now?: Date }) {
  const view = rowView(item);
  const Icon = view.icon;
  return (
    <li className="flex items-start gap-3 px-3 py-2 text-sm">
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted" />
      <span className="min-w-0 flex-1">
        <span className="flex items-center gap-2 font-medium text-fg">
          {view.title}
          {view.isNew && <Badge tone="primary">New</Badge>}
        </span>
        {view.detail && <span className="block wrap-anywhere text-muted">{view.detail}</span>}
      </span>
      <time dateTime={item.createdAt} className="shrink-0 whitespace-nowrap text-xs text-muted">
        {formatRelativeTime(item.createdAt, now)}
      </time>
    </li>
  );
}
