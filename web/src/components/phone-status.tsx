import { Phone, PhoneOff } from 'lucide-react';
import { cn } from '@/lib/cn';

/**
 * Whether calls ring a member now (docs/product.md §10.5): "Phone ready" while a tab of theirs has a
 * registered phone, "Phone offline" otherwise. Shown on the Team page and in an inbox's member list.
 */
export function PhoneStatus({ ready, className }: { ready: boolean; className?: string }) {
  const Icon = ready ? Phone : PhoneOff;
  return (
    <span className={cn('inline-flex items-center gap-1 text-xs', ready ? 'text-success' : 'text-muted', className)}>
      <Icon aria-hidden="true" className="size-3.5 shrink-0" />
      {ready ? 'Phone ready' : 'Phone offline'}
    </span>
  );
}
