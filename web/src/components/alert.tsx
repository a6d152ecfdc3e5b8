import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

const tones = {
  error: 'border-danger/40 bg-danger-soft text-danger',
  success: 'border-success/40 bg-success-soft text-success',
  warning: 'border-warning-border bg-warning-soft text-warning-fg',
  info: 'border-border bg-surface-muted text-fg',
} as const;

export function Alert({
  tone,
  title,
  id,
  children,
}: {
  tone: keyof typeof tones;
  title?: string;
  id?: string;
  children?: ReactNode;
}) {
  return (
    <div id={id} role={tone === 'error' ? 'alert' : 'status'} className={cn('rounded-lg border px-4 py-3 text-sm', tones[tone])}>
      {title && <p className="font-semibold">{title}</p>}
      {children && <div className={cn(title && 'mt-1')}>{children}</div>}
    </div>
  );
}
