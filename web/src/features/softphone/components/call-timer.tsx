import { useEffect, useState } from 'react';
import { formatDurationSeconds } from '@/lib/format-duration';

/** Time since `since` (epoch ms), ticking every second. */
export function CallTimer({ since, label }: { since: number; label: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <span role="timer" aria-label={label} className="font-mono text-sm tabular-nums text-muted">
      {formatDurationSeconds((now - since) / 1000)}
    </span>
  );
}
