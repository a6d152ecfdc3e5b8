import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

const tones = {
  // primary-fg is white in the light theme and near-black in the dark one: readable on both greens and reds.
  answer: 'bg-success text-primary-fg hover:opacity-90',
  end: 'bg-danger text-primary-fg hover:opacity-90',
  plain: 'border border-border bg-surface text-fg hover:bg-surface-muted',
} as const;

/**
 * The call panels' buttons: Answer and Call green, Reject and End red, the rest plain. `stacked` puts
 * the icon above the label, for a row of three in a panel that fits a phone.
 */
export function CallButton({
  tone,
  stacked = false,
  className,
  type,
  ...rest
}: ComponentProps<'button'> & { tone: keyof typeof tones; stacked?: boolean }) {
  return (
    <button
      type={type ?? 'button'}
      className={cn(
        // The icon keeps its size: a label that fills the button must not squeeze it away.
        'inline-flex min-h-10 flex-1 items-center justify-center rounded-lg py-2 text-sm font-semibold [&>svg]:shrink-0',
        stacked ? 'flex-col gap-1 px-2' : 'gap-1.5 px-3',
        'disabled:cursor-not-allowed disabled:opacity-60',
        tones[tone],
        className,
      )}
      {...rest}
    />
  );
}

/** The floating panels' frame: fixed width that still fits a 360 px screen. */
export const PANEL = 'w-[min(20rem,calc(100vw-2rem))] rounded-xl border border-border bg-surface p-4 text-fg shadow-2xl';
