import type { CallRecording } from '@shared/contract/calls';
import { CircleDot, Play } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/button';
import { errorMessage } from '@/lib/api-client';
import { formatDurationSeconds } from '@/lib/format-duration';
import { useCallRecordingAudio } from '../api/calls-api';

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
  const player = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    if (audio.url) player.current?.focus();
  }, [audio.url]);
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
      {recording.status === 'COMPLETED' &&
        (audio.url ? (
          // biome-ignore lint/a11y/useMediaCaption: a call's recording has no captions to offer
          <audio ref={player} tabIndex={0} controls autoPlay src={audio.url} aria-label={label} className="h-10 max-w-full" />
        ) : (
          <Button
            variant="secondary"
            className="min-h-9 px-3 py-1.5"
            pending={audio.isLoading}
            pendingLabel="Loading recording…"
            aria-label={`Play recording: ${label}`}
            onClick={() => (asked ? void audio.retry() : setAsked(true))}
          >
            <Play aria-hidden="true" className="size-4" />
            Play recording
          </Button>
        ))}
      {audio.isError && (
        <p role="alert" className="text-xs text-danger">
          {errorMessage(audio.error, 'The recording could not be loaded.')}
        </p>
      )}
    </div>
  );
}
