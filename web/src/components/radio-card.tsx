import type { LucideIcon } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { cn } from '../lib/cn';

export interface RadioCardProps {
  name: string;
  value: string;
  checked: boolean;
  onChange: (value: string) => void;
  label: string;
  description?: ReactNode;
  icon?: LucideIcon;
  disabled?: boolean;
  /** Shown after the label ("Coming Soon"). */
  badge?: ReactNode;
}

/** One option of a radio group drawn as a card; a native radio, so arrow keys move between options. */
export function RadioCard({ name, value, checked, onChange, label, description, icon: Icon, disabled, badge }: RadioCardProps) {
  const id = useId();
  return (
    <label
      htmlFor={id}
      className={cn(
        'flex items-start gap-3 rounded-lg border p-3 transition-colors',
        disabled ? 'cursor-not-allowed border-border bg-surface-muted' : 'cursor-pointer hover:bg-surface-muted',
        checked && !disabled ? 'border-primary bg-primary-soft/60 ring-1 ring-primary' : 'border-border',
      )}
    >
      <input
        id={id}
        type="radio"
        name={name}
        value={value}
        checked={checked}
        disabled={disabled}
        onChange={() => onChange(value)}
        aria-labelledby={`${id}-label`}
        aria-describedby={description ? `${id}-description` : undefined}
        className="mt-0.5 size-4 shrink-0 accent-primary"
      />
      <span className="min-w-0 flex-1">
        <span className="flex flex-wrap items-center gap-2 text-sm font-semibold text-fg">
          {Icon && <Icon aria-hidden="true" className="size-4 text-muted" />}
          <span id={`${id}-label`}>{label}</span>
          {badge}
        </span>
        {description && (
          <span id={`${id}-description`} className="mt-0.5 block text-sm text-muted">
            {description}
          </span>
        )}
      </span>
    </label>
  );
}
