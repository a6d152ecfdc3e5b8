import { cn } from '../lib/cn';

/** A grey placeholder block of the size of what is loading, so nothing jumps when it arrives. */
export function Skeleton({ className }: { className?: string }) {
  return <span aria-hidden="true" className={cn('block animate-pulse rounded-md bg-surface-muted', className)} />;
}
