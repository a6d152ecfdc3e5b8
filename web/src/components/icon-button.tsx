import type { LucideIcon } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '../lib/cn';

export interface IconButtonProps extends Omit<ComponentProps<'button'>, 'aria-label' | 'children'> {
  /** What pressing it does ("Disconnect Twilio"): its accessible name and tooltip. */
  label: string;
  icon: LucideIcon;
  tone?: 'default' | 'danger';
}

/** A square icon-only button that always carries a name. */
export function IconButton({ label, icon: Icon, tone = 'default', className, type, ...rest }: IconButtonProps) {
  return (
    <button
      type={type ?? 'button'}
      aria-label={label}
      title={label}
      className={cn(
        'inline-flex size-9 shrink-0 items-center justify-center rounded-lg text-muted transition-colors',
        'disabled:cursor-not-allowed disabled:opacity-50',
        tone === 'danger' ? 'hover:bg-danger-soft hover:text-danger' : 'hover:bg-surface-muted hover:text-fg',
        className,
      )}
      {...rest}
    >
      <Icon aria-hidden="true" className="size-4.5" />
    </button>
  );
}
