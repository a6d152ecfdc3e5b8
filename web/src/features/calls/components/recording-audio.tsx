import { Play } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Button } from '@/components/button';
import { errorMessage } from '@/lib/api-client';

/** What a recording's fetch gives (useVoicemailAudio, useCallRecordingAudio). */
interface RecordingFetch {
  url: string | undefined;
  isLoading: boolean;
  isError: boolean;
  error: unknown;
  retry: () => unknown;
}

/**
 * A recording played as Call History plays it: a Play button fetches it then and there (asked), and
 * the browser's own player (keyboard-usable) takes the button's place and focus. Voicemails and call
 * recordings (docs/product.md: Call recording) both.
 */
export function RecordingAudio({
  audio,
  asked,
  onAsk,
  label,
  noun,
}: {
  audio: RecordingFetch;
  asked: boolean;
  onAsk: () => void;
  label: string;
  noun: 'voicemail' | 'recording';
}) {
  const player = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    if (audio.url) player.current?.focus();
  }, [audio.url]);
  return (
    <>
      {audio.url ? (
        // biome-ignore lint/a11y/useMediaCaption: a recorded call or message has no captions to offer
        <audio
          ref={player}
          // Focusable as it is in browsers (its controls), so focus can move there from the button it replaces.
          tabIndex={0}
          controls
          autoPlay
          src={audio.url}
          aria-label={label}
          className="h-10 max-w-full"
        />
      ) : (
        <Button
          variant="secondary"
          className="min-h-9 px-3 py-1.5"
          pending={audio.isLoading}
          pendingLabel={`Loading ${noun}…`}
          aria-label={`Play ${noun}: ${label}`}
          onClick={() => (asked ? void audio.retry() : onAsk())}
        >
          <Play aria-hidden="true" className="size-4" />
          Play {noun}
        </Button>
      )}
      {audio.isError && (
        <p role="alert" className="text-xs text-danger">
          {errorMessage(audio.error, `The ${noun} could not be loaded.`)}
        </p>
      )}
    </>
  );
}
