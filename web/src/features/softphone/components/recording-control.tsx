import { CirclePause, CirclePlay } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '@/lib/api-client';
import { usePauseRecording } from '../api/softphone-api';
import { CallButton } from './call-buttons';

/**
 * A recorded call's state in the active-call panel (docs/product.md: Call recording): "Recording" or
 * "Recording paused", and Pause/Resume recording for a card number read aloud; disabled while the
 * change is under way, its failure said under it.
 */
export function RecordingControl({ callSid }: { callSid: string }) {
  const change = usePauseRecording(callSid);
  const [paused, setPaused] = useState(false);
  const toggle = () => {
    const next = !paused;
    change.mutate(next, { onSuccess: (recording) => setPaused(recording.paused) });
  };
  return (
    <div className="mt-3 flex flex-col gap-1">
      <div className="flex items-center justify-between gap-2">
        <span role="status" className="inline-flex items-center gap-2 text-sm font-medium text-fg">
          <span
            aria-hidden="true"
            className={paused ? 'size-2 rounded-full bg-muted' : 'size-2 animate-pulse rounded-full bg-danger'}
          />
          {paused ? 'Recording paused' : 'Recording'}
        </span>
        <CallButton tone="plain" onClick={toggle} disabled={change.isPending} aria-busy={change.isPending}>
          {paused ? <CirclePlay aria-hidden="true" className="size-4" /> : <CirclePause aria-hidden="true" className="size-4" />}
          {paused ? 'Resume recording' : 'Pause recording'}
        </CallButton>
      </div>
      {change.isError && (
        <p role="alert" className="text-sm font-medium text-danger">
          {errorMessage(change.error, paused ? 'Failed to resume the recording' : 'Failed to pause the recording')}
        </p>
      )}
    </div>
  );
}
