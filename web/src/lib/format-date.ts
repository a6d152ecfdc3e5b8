const DATE = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short' });

/** The app's one way to show a date: 'Nov 22, 2026' in the reader's locale; '' for a missing or broken value. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : DATE.format(date);
}

/** A moment exactly, for a relative time's tooltip: 'Sunday, November 22, 2026 at 3:05 PM' in the reader's locale. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : DATE_TIME.format(date);
}

/**
 * The day a thread's messages are grouped under: 'Today', 'Yesterday', else the date, in the
 * reader's time zone.
 */
export function formatDay(iso: string, now: Date = new Date()): string {
  const day = dayOf(iso);
  if (day === dayOf(now)) return 'Today';
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (day === dayOf(yesterday)) return 'Yesterday';
  return formatDate(iso);
}

/** The reader's calendar day of a moment, as a key: '2026-11-22'. */
export function dayOf(moment: string | Date): string {
  const date = typeof moment === 'string' ? new Date(moment) : moment;
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}
