import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

/** Tones readable (WCAG AA) on the surface in both themes. */
const tones = {
  neutral: 'border-border bg-surface-muted text-muted',
  success: 'border-success/30 bg-success-soft text-success',
  warning: 'border-warning-border bg-warning-soft text-warning-fg',
  danger: 'border-danger/30 bg-danger-soft text-danger',
  primary: 'border-primary/30 bg-primary-soft text-primary',
  purple: 'border-purple-300 bg-purple-50 text-purple-800 dark:border-purple-400/40 dark:bg-purple-400/10 dark:text-purple-200',
  blue: 'border-blue-300 bg-blue-50 text-blue-800 dark:border-blue-400/40 dark:bg-blue-400/10 dark:text-blue-200',
  green:
    'border-emerald-300 bg-emerald-50 text-emerald-800 dark:border-emerald-400/40 dark:bg-emerald-400/10 dark:text-emerald-200',
} as const;

export type BadgeTone = keyof typeof tones;

export function Badge({
  tone = 'neutral',
  wrap = false,
  className,
  children,
}: {
  tone?: BadgeTone;
  /** Text that may be long (a role name) wraps within the space it has instead of overflowing it. */
  wrap?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <span
      className={cn(
        'inline-flex shrink-0 items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-semibold',
        wrap ? 'max-w-full wrap-anywhere' : 'whitespace-nowrap',
        tones[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}
