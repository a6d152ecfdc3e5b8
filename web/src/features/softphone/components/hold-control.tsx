import { Pause, Play } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '@/lib/api-client';
import { useRealtimeEvent } from '@/lib/realtime/realtime';
import { useHoldCall } from '../api/softphone-api';
import { CallButton } from './call-buttons';
import { CallTimer } from './call-timer';

/**
 * docs/product.md: Hold. The Hold button of the active call: holds the customer (the button turns to
 * Resume and the panel says "On hold" with its own timer), disabled while the request is under way;
 * the other tabs of the agent follow through `call_held`. Without a call id yet (an outbound call
 * Twilio has not named) it stays disabled.
 */
export function useCallHold(callSid: string | null) {
  const [heldSince, setHeldSince] = useState<number | null>(null);
  const mutation = useHoldCall();
  useRealtimeEvent('call_held', (event) => {
    if (event.data.callSid !== callSid) return;
    setHeldSince(event.data.heldSince ? Date.parse(event.data.heldSince) : null);
  });
  const toggle = () => {
    if (!callSid || mutation.isPending) return;
    const held = heldSince === null;
    mutation.mutate(
      { callId: callSid, held },
      { onSuccess: (call) => setHeldSince(call.held ? (heldSince ?? Date.now()) : null) },
    );
  };
  return {
    held: heldSince !== null,
    heldSince,
    pending: mutation.isPending,
    error: mutation.error ? errorMessage(mutation.error, 'Failed to change the hold') : null,
    toggle,
  };
}

export function HoldButton(props: { hold: ReturnType<typeof useCallHold>; disabled: boolean }) {
  const { hold } = props;
  return (
    <CallButton
      tone="plain"
      onClick={hold.toggle}
      disabled={props.disabled || hold.pending}
      aria-pressed={hold.held}
      stacked
      className={hold.held ? 'bg-primary-soft text-primary' : undefined}
    >
      {hold.held ? <Play aria-hidden="true" className="size-4" /> : <Pause aria-hidden="true" className="size-4" />}
      {hold.held ? 'Resume' : 'Hold'}
    </CallButton>
  );
}

/** "On hold" with the time on hold, and a failed hold's reason. */
export function HoldStatus(props: { hold: ReturnType<typeof useCallHold> }) {
  const { hold } = props;
  return (
    <>
      {hold.heldSince !== null && (
        <p role="status" className="mt-2 flex items-center justify-between text-sm font-medium text-primary">
          On hold
          <CallTimer since={hold.heldSince} label="Time on hold" />
        </p>
      )}
      {hold.error && (
        <p role="alert" className="mt-2 text-sm text-danger">
          {hold.error}
        </p>
      )}
    </>
  );
}
