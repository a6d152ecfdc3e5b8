import { formatRelativeTime } from '@/lib/relative-time';

/** "just now", "5m ago", or a date, to follow "Checked": only the relative words are lower-cased. */
export function checkedWhen(checkedAt: string | null): string {
  const when = formatRelativeTime(checkedAt);
  return when === 'Just now' ? 'just now' : when;
}
