import type { CallRecording } from '@shared/contract/calls';
import { CircleDot } from 'lucide-react';
import { useState } from 'react';
import { formatDurationSeconds } from '@/lib/format-duration';
import { useCallRecordingAudio } from '../api/calls-api';
import { RecordingAudio } from './recording-audio';

/**
 * A recorded call's recording in Call History (docs/product.md: Call recording), played as a
 * voicemail is: "Play recording" fetches it then and there, and the browser's own player takes the
 * button's place and focus. A recording under way or one Twilio could not make says so.
 */
export function CallRecordingPlayer({
  call,
  label,
}: {
  call: { providerCallId: string; recording: CallRecording };
  label: string;
}) {
  const [asked, setAsked] = useState(false);
  const audio = useCallRecordingAudio(call, asked);
  const { recording } = call;
  return (
    <div className="flex basis-full flex-wrap items-center gap-3 pl-7">
      <span className="flex items-center gap-1.5 text-xs font-medium text-muted">
        <CircleDot aria-hidden="true" className="size-4" />
        Recording
        {recording.status === 'COMPLETED' && (
          <span className="tabular-nums">· {formatDurationSeconds(recording.durationSeconds)}</span>
        )}
        {recording.status === 'FAILED' && <span>· not available</span>}
        {(recording.status === 'RECORDING' || recording.status === 'PAUSED') && <span>· in progress</span>}
      </span>
      {recording.status === 'COMPLETED' && (
        <RecordingAudio audio={audio} asked={asked} onAsk={() => setAsked(true)} label={label} noun="recording" />
      )}
    </div>
  );
}
