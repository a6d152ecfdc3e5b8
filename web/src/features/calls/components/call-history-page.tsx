import { CALL_STATUSES, type Call, type CallStatus, type Voicemail } from '@shared/contract/calls';
import { Phone, PhoneIncoming, PhoneOff, PhoneOutgoing, Voicemail as VoicemailIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { Alert } from '@/components/alert';
import { Badge, type BadgeTone } from '@/components/badge';
import { Button } from '@/components/button';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { Skeleton } from '@/components/skeleton';
import { Surface } from '@/components/surface';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDurationSeconds } from '@/lib/format-duration';
import { usePhoneFormat } from '@/lib/phone-display';
import { type CallPlacer, usePlaceCall } from '@/lib/place-call';
import { formatRelativeTime } from '@/lib/relative-time';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useCalls, useVoicemailAudio } from '../api/calls-api';
import { useCallFilters } from '../hooks/use-call-filters';
import { CallRecordingPlayer } from './call-recording-player';
import { RecordingAudio } from './recording-audio';

export const CALL_STATUS_LABELS: Record<CallStatus, string> = {
  COMPLETED: 'Completed',
  FAILED: 'Failed',
  NO_ANSWER: 'No answer',
  BUSY: 'Busy',
  RINGING: 'Ringing',
  IN_PROGRESS: 'In progress',
};

const STATUS_TONES: Record<CallStatus, BadgeTone> = {
  COMPLETED: 'success',
  FAILED: 'danger',
  NO_ANSWER: 'warning',
  BUSY: 'warning',
  RINGING: 'primary',
  IN_PROGRESS: 'primary',
};

const FIELD = 'min-h-10 rounded-lg border border-border bg-surface px-3 py-2 text-sm text-fg';

/** docs/product.md §2 Call History: status, from and to filters with Clear Filters, and the calls, newest first. */
export function CallHistoryPage() {
  useDocumentTitle('Call History');
  const { filters, setFilter, clearFilters } = useCallFilters();
  // Days as YYYY-MM-DD compare as text; an inverted range is said, not sent.
  const inverted = Boolean(filters.from && filters.to && filters.from > filters.to);
  const calls = useCalls(filters, { enabled: !inverted });
  const filtered = Boolean(filters.status || filters.from || filters.to || filters.voicemail);

  const list = [...(calls.data ?? [])].sort((a, b) => b.createdAt.localeCompare(a.createdAt));

  const statusId = useId();
  const rangeErrorId = useId();
  const reasonId = useId();
  const placer = usePlaceCall();
  const rangeProps = inverted ? { 'aria-invalid': true, 'aria-describedby': rangeErrorId } : {};

  return (
    <>
      <PageHeader title="Call History" description="Calls to and from your numbers." />
      <form aria-label="Filter calls" className="mb-4 flex flex-wrap items-end gap-3" onSubmit={(e) => e.preventDefault()}>
        {/* Labelled by id, not by wrapping: a wrapped select's name would include its chosen option. */}
        <div className="flex flex-col gap-1.5 text-sm font-medium text-fg">
          <label htmlFor={statusId}>Status</label>
          <select id={statusId} className={FIELD} value={filters.status} onChange={(e) => setFilter('status', e.target.value)}>
            <option value="">All statuses</option>
            {CALL_STATUSES.map((s) => (
              <option key={s} value={s}>
                {CALL_STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        {/* Calls where the caller left a voicemail (`voicemail=true` in the address, as the API takes it). */}
        <label className={cn(FIELD, 'flex cursor-pointer items-center gap-2 font-medium')}>
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={filters.voicemail === 'true'}
            onChange={(e) => setFilter('voicemail', e.target.checked ? 'true' : '')}
          />
          Voicemail
        </label>
        <label className="flex flex-col gap-1.5 text-sm font-medium text-fg">
          From date
          <input
            type="date"
            className={FIELD}
            value={filters.from}
            max={filters.to || undefined}
            {...rangeProps}
            onChange={(e) => setFilter('from', e.target.value)}
          />
        </label>
        <label className="flex flex-col gap-1.5 text-sm font-medium text-fg">
          To date
          <input
            type="date"
            className={FIELD}
            value={filters.to}
            min={filters.from || undefined}
            {...rangeProps}
            onChange={(e) => setFilter('to', e.target.value)}
          />
        </label>
        <Button variant="secondary" disabled={!filtered} onClick={clearFilters}>
          Clear Filters
        </Button>
      </form>
      {inverted ? (
        <Alert tone="error" id={rangeErrorId}>
          From date must be on or before To date
        </Alert>
      ) : calls.isError ? (
        <Alert tone="error">{errorMessage(calls.error, 'Failed to load calls')}</Alert>
      ) : calls.isPending ? (
        <Surface role="status" className="flex flex-col gap-3 p-4">
          <span className="sr-only">Loading calls...</span>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-10 w-full" />
          ))}
        </Surface>
      ) : list.length === 0 ? (
        <Surface>
          <EmptyState icon={PhoneOff} title={filtered ? 'No calls match these filters' : 'No calls yet'}>
            {filtered ? 'Try another status or dates.' : 'Calls to and from your numbers appear here.'}
          </EmptyState>
        </Surface>
      ) : (
        <Surface className="overflow-hidden">
          {/* Said once for every row's disabled Call back. */}
          {placer.unavailableReason && (
            <p id={reasonId} className="border-b border-border bg-surface-muted px-4 py-2 text-sm text-muted">
              Call back is unavailable: {placer.unavailableReason}
            </p>
          )}
          <ul aria-label="Calls" className="divide-y divide-border">
            {list.map((call) => (
              <CallRow key={call.id} call={call} placer={placer} reasonId={reasonId} />
            ))}
          </ul>
        </Surface>
      )}
    </>
  );
}

function CallRow({ call, placer, reasonId }: { call: Call; placer: CallPlacer; reasonId: string }) {
  const formatPhone = usePhoneFormat();
  const inbound = call.direction === 'INBOUND';
  const Icon = inbound ? PhoneIncoming : PhoneOutgoing;
  const caller = call.contact.name || formatPhone(call.contact.phoneNumber);
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 text-sm">
      <span className="flex min-w-0 flex-1 basis-56 items-center gap-3">
        <Icon aria-hidden="true" className={inbound ? 'size-4 shrink-0 text-primary' : 'size-4 shrink-0 text-muted'} />
        <span className="sr-only">{inbound ? 'Inbound call' : 'Outbound call'}</span>
        <span className="min-w-0">
          <span className="block font-semibold wrap-anywhere text-fg">{caller}</span>
          <span className="block text-xs text-muted">
            {inbound ? 'to' : 'from'} {formatPhone(call.channel.phoneNumber)}
          </span>
        </span>
      </span>
      <span className="w-40 truncate text-muted">{whoTookIt(call)}</span>
      <Badge tone={STATUS_TONES[call.callStatus]}>{CALL_STATUS_LABELS[call.callStatus]}</Badge>
      <span className="w-14 text-right tabular-nums text-fg">
        {/* A call nobody talked on has no length: 0:00 would read as a call that connected and dropped. */}
        {connected(call) ? (
          <>
            <span className="sr-only">Duration </span>
            {formatDurationSeconds(call.durationSeconds)}
          </>
        ) : (
          <>
            <span aria-hidden="true" className="text-muted">
              —
            </span>
            <span className="sr-only">Not connected</span>
          </>
        )}
      </span>
      <time dateTime={call.createdAt} className="w-24 text-right whitespace-nowrap text-muted">
        {formatRelativeTime(call.createdAt)}
      </time>
      <CallBack call={call} caller={caller} placer={placer} reasonId={reasonId} />
      {call.failureReason && (
        <p className="basis-full pl-7 text-xs font-medium text-danger">
          <span className="sr-only">Why it failed: </span>
          {call.failureReason}
        </p>
      )}
      {call.recording && (
        <CallRecordingPlayer
          call={{ providerCallId: call.providerCallId, recording: call.recording }}
          label={`Recording of the call with ${caller}, ${formatDurationSeconds(call.recording.durationSeconds)}`}
        />
      )}
      {call.voicemail && (
        <VoicemailPlayer
          call={{ id: call.id, voicemail: call.voicemail }}
          label={`Voicemail from ${caller}, ${formatDurationSeconds(call.voicemail.durationSeconds)}`}
        />
      )}
    </li>
  );
}

/** Whether someone talked on the call: only then has it a length (a voicemail's is its own, below the row). */
const connected = (call: Pick<Call, 'callStatus'>) => call.callStatus === 'COMPLETED';

/**
 * Who answered an inbound call or placed an outbound one; for a call nobody answered, why when it
 * rang nobody ("No one was available": no member's phone was ready, docs/product.md §10.5).
 */
export function whoTookIt(call: Pick<Call, 'direction' | 'answeredBy' | 'missedReason'>): string {
  if (!call.answeredBy) return call.direction === 'INBOUND' ? (call.missedReason ?? 'Not answered') : '';
  return `${call.direction === 'INBOUND' ? 'Answered by' : 'Placed by'} ${call.answeredBy.name}`;
}

/**
 * Call back: dials the other party from the number the call was on, through the softphone
 * (lib/place-call); disabled, with the reason beside it, while calling is unavailable. The softphone
 * shows the call, and any error placing it, as it does for the dialer.
 */
function CallBack({ call, caller, placer, reasonId }: { call: Call; caller: string; placer: CallPlacer; reasonId: string }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const reason = placer.unavailableReason;
  const callBack = async () => {
    setPending(true);
    setError(null);
    try {
      setError(await placer.dial(call.contact.phoneNumber, call.channel.phoneNumber));
    } finally {
      setPending(false);
    }
  };
  return (
    <span className="flex flex-col items-end gap-1">
      <Button
        variant="secondary"
        className="min-h-9 px-3 py-1.5"
        disabled={reason !== null}
        aria-describedby={reason ? reasonId : undefined}
        title={reason ?? undefined}
        pending={pending}
        pendingLabel="Calling…"
        aria-label={`Call back ${caller}`}
        onClick={() => void callBack()}
      >
        <Phone aria-hidden="true" className="size-4" />
        Call back
      </Button>
      {error && (
        <span role="alert" className="max-w-48 text-right text-xs text-danger">
          {error}
        </span>
      )}
    </span>
  );
}

/**
 * A voicemail: "New" until someone in the company has played it, and Play voicemail, which
 * fetches the recording then and there: fetching it is what marks it listened on the server, so it is
 * not loaded merely because the list was shown. Then the browser's own player (keyboard-usable), given
 * focus in the button's place, plays it.
 */
function VoicemailPlayer({ call, label }: { call: { id: string; voicemail: Voicemail }; label: string }) {
  const [asked, setAsked] = useState(false);
  const audio = useVoicemailAudio(call, asked);
  return (
    <div className="flex basis-full flex-wrap items-center gap-3 pl-7">
      <span className="flex items-center gap-1.5 text-xs font-medium text-muted">
        <VoicemailIcon aria-hidden="true" className="size-4" />
        Voicemail
        {/* Its length before it is played: whether to listen now or later. */}
        <span className="tabular-nums">· {formatDurationSeconds(call.voicemail.durationSeconds)}</span>
      </span>
      {!call.voicemail.listened && <Badge tone="primary">New</Badge>}
      <RecordingAudio audio={audio} asked={asked} onAsk={() => setAsked(true)} label={label} noun="voicemail" />
    </div>
  );
}
