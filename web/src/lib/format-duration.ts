/**
 * A call's length as m:ss (docs/product.md §2), the same in Call History and the call widget:
 * 0:07, 1:05, 60:01. Whole seconds, rounded down; never negative.
 */
export function formatDurationSeconds(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}
