import type { HTMLAttributes } from 'react';
import { cn } from '../lib/cn';

/**
 * A card's frame without its padding, for content that sets its own (lists with dividers, tables).
 * `cn` does not merge Tailwind classes, so Card's padding cannot be overridden from outside.
 * `muted` is the dimmed variant (a feature that is not available yet).
 */
export function Surface({ muted, className, ...rest }: HTMLAttributes<HTMLDivElement> & { muted?: boolean }) {
  return (
    <div
      className={cn(
        'rounded-xl border border-border',
        muted ? 'border-dashed bg-surface-muted' : 'bg-surface shadow-sm',
        className,
      )}
      {...rest}
    />
  );
}
