import { RECONNECTING_NOTICE_DELAY_MS } from '@shared/constants';
import { WifiOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useRealtimeState } from '../../lib/realtime/realtime';

/**
 * A quiet sign in the shell that live updates are paused: shown once the socket has been down for
 * 5 seconds (a blip shows nothing), gone as soon as it is back. The status region is always present
 * so that screen readers announce the text politely when it appears.
 */
export function ReconnectingNotice() {
  const state = useRealtimeState();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (state === 'connected') {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), RECONNECTING_NOTICE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state]);

  return (
    <div role="status" className="pointer-events-none fixed bottom-4 left-1/2 z-40 -translate-x-1/2">
      {shown && (
        <p className="flex items-center gap-2 rounded-full border border-warning-border bg-warning-soft px-3 py-1.5 text-xs font-medium text-warning-fg shadow-sm">
          <WifiOff aria-hidden="true" className="size-3.5" />
          Reconnecting…
        </p>
      )}
    </div>
  );
}
