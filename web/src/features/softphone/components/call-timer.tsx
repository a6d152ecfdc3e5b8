import { useEffect, useState } from 'react';

/** m:ss (docs/product.md §2): 0:07, 1:05, 12:00. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Time since `since` (epoch ms), ticking every second. */
export function CallTimer({ since, label }: { since: number; label: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <span role="timer" aria-label={label} className="font-mono text-sm tabular-nums text-muted">
      {formatDuration(now - since)}
    </span>
  );
}
