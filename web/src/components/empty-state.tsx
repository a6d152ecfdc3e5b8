import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

/** What a list says when it has nothing to show: an icon, the product's text (docs/product.md §2), a hint and maybe an action. */
export function EmptyState({
  icon: Icon,
  title,
  children,
  action,
  className,
}: {
  icon: LucideIcon;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('flex flex-col items-center gap-2 px-4 py-10 text-center', className)}>
      <span className="mb-1 flex size-12 items-center justify-center rounded-full bg-surface-muted text-muted">
        <Icon aria-hidden="true" className="size-6" />
      </span>
      <p className="font-semibold text-fg">{title}</p>
      {children && <div className="max-w-sm text-sm text-muted">{children}</div>}
      {action && <div className="mt-3">{action}</div>}
    </div>
  );
}
