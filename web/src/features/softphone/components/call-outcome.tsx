/**
 * How the last call ended ('Busy', 'No answer', 'Call ended'), above the call button for a few
 * seconds. The live region is always there (visually hidden while empty), so each outcome is announced.
 */
export function CallOutcomeStatus({ text }: { text: string | null }) {
  return (
    <p
      role="status"
      aria-label="Last call"
      className={
        text ? 'rounded-full border border-border bg-surface px-3 py-1 text-sm font-medium text-fg shadow-md' : 'sr-only'
      }
    >
      {text}
    </p>
  );
}
