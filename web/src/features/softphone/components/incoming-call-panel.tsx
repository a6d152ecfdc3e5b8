import { Phone, PhoneOff } from 'lucide-react';
import { useId } from 'react';
import { usePhoneFormat } from '../../../lib/phone-display';
import type { CallInfo } from '../hooks/call-manager';
import { CallButton, PANEL } from './call-buttons';
import { CallTimer } from './call-timer';

/** SPEC §2: the ringing call, its caller (or Unknown), the number called, how long it has rung. */
export function IncomingCallPanel(props: {
  call: CallInfo;
  since: number;
  answering: boolean;
  onAnswer: () => void;
  onReject: () => void;
}) {
  const { call, since, answering } = props;
  const format = usePhoneFormat();
  const titleId = useId();
  const caller = call.from ? format(call.from) : 'Unknown';
  return (
    <section aria-labelledby={titleId} className={PANEL}>
      <div className="flex items-start justify-between gap-3">
        <h2 id={titleId} className="text-sm font-semibold tracking-wide text-muted uppercase">
          Incoming Call
        </h2>
        <CallTimer since={since} label="Ringing for" />
      </div>
      <p aria-live="assertive" className="mt-2 text-lg font-semibold wrap-anywhere">
        <span className="sr-only">Incoming call from </span>
        {caller}
      </p>
      {call.contactName && <p className="text-sm wrap-anywhere text-fg">{call.contactName}</p>}
      {call.to && <p className="mt-1 text-sm text-muted">to {format(call.to)}</p>}
      <div className="mt-4 flex gap-2">
        <CallButton tone="end" onClick={props.onReject} disabled={answering}>
          <PhoneOff aria-hidden="true" className="size-4" />
          Reject
        </CallButton>
        <CallButton tone="answer" onClick={props.onAnswer} disabled={answering} aria-busy={answering || undefined}>
          <Phone aria-hidden="true" className="size-4" />
          Answer
        </CallButton>
      </div>
    </section>
  );
}
