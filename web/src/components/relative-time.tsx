import { useClockTick } from '@/hooks/use-clock';
import { formatDateTime } from '@/lib/format-date';
import { formatRelativeTime } from '@/lib/relative-time';

/**
 * A moment as a relative time ("5m ago", docs/product.md §2) that ages while on screen, with the exact
 * time for the pointer (title) and for machines (dateTime).
 */
export function RelativeTime({ iso, className }: { iso: string; className?: string }) {
  useClockTick();
  return (
    <time dateTime={iso} title={formatDateTime(iso)} className={className}>
      {formatRelativeTime(iso)}
    </time>
  );
}
