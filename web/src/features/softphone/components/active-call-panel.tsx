import { Grid3x3, Mic, MicOff, PhoneOff } from 'lucide-react';
import { useId, useState } from 'react';
import { usePhoneFormat } from '@/lib/phone-display';
import type { CallInfo } from '../hooks/call-manager';
import { CallButton, PANEL } from './call-buttons';
import { CallTimer } from './call-timer';
import { HoldButton, HoldStatus, useCallHold } from './hold-control';
import { Keypad } from './keypad';
import { RecordingControl } from './recording-control';

/**
 * docs/product.md §2: the call in progress. The remote number is From, else To, else In Call; while an outbound
 * call has not been answered yet the panel says it is calling instead of counting.
 */
export function ActiveCallPanel(props: {
  call: CallInfo;
  /** null while dialing. */
  since: number | null;
  muted: boolean;
  onToggleMute: () => void;
  onDigit: (digit: string) => void;
  onEnd: () => void;
}) {
  const { call, since, muted } = props;
  const format = usePhoneFormat();
  const titleId = useId();
  const padId = useId();
  const [padOpen, setPadOpen] = useState(false);
  const [sent, setSent] = useState('');
  const hold = useCallHold(call.callSid);
  const remote = call.from ?? call.to;
  const press = (digit: string) => {
    props.onDigit(digit);
    setSent((s) => s + digit);
  };
  return (
    <section aria-labelledby={titleId} tabIndex={-1} data-dock-focus className={PANEL}>
      <div className="flex items-start justify-between gap-3">
        <h2 id={titleId} className="text-sm font-semibold tracking-wide text-muted uppercase">
          Active Call
        </h2>
        {since === null ? (
          <span role="status" className="text-sm text-muted">
            Calling...
          </span>
        ) : (
          <CallTimer since={since} label="Call duration" />
        )}
      </div>
      <p className="mt-2 text-lg font-semibold wrap-anywhere">{remote ? format(remote) : 'In Call'}</p>
      {call.contactName && <p className="text-sm wrap-anywhere text-fg">{call.contactName}</p>}
      {call.recorded && call.callSid && since !== null && <RecordingControl callSid={call.callSid} />}
      <HoldStatus hold={hold} />
      <div className="mt-4 grid grid-cols-3 gap-2">
        <CallButton
          tone="plain"
          onClick={props.onToggleMute}
          disabled={since === null}
          stacked
          className={muted ? 'bg-primary-soft text-primary' : undefined}
        >
          {muted ? <MicOff aria-hidden="true" className="size-4" /> : <Mic aria-hidden="true" className="size-4" />}
          {muted ? 'Unmute' : 'Mute'}
        </CallButton>
        <HoldButton hold={hold} disabled={since === null || !call.callSid} />
        <CallButton tone="plain" aria-expanded={padOpen} aria-controls={padId} onClick={() => setPadOpen((o) => !o)} stacked>
          <Grid3x3 aria-hidden="true" className="size-4" />
          Keypad
        </CallButton>
      </div>
      <div id={padId} hidden={!padOpen} className="mt-3">
        {padOpen && (
          <>
            <output aria-label="Digits sent" className="mb-2 block min-h-6 text-center font-mono text-base tracking-widest">
              {sent}
            </output>
            <Keypad label="Keypad" onPress={press} />
          </>
        )}
      </div>
      <CallButton tone="end" onClick={props.onEnd} className="mt-3 w-full">
        <PhoneOff aria-hidden="true" className="size-4" />
        End
      </CallButton>
    </section>
  );
}
