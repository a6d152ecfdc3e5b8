import { useState } from 'react';
import { cn } from '../lib/cn';

/** A person's picture, or the first letter of their name on a tinted disc. Decorative: the name is beside it. */
export function Avatar({ name, src, className }: { name: string; src?: string | null; className?: string }) {
  const [failed, setFailed] = useState(false);
  const base = cn('size-9 shrink-0 rounded-full', className);
  if (src && !failed) return <img src={src} alt="" className={cn(base, 'object-cover')} onError={() => setFailed(true)} />;
  return (
    <span
      aria-hidden="true"
      className={cn(base, 'flex items-center justify-center bg-primary-soft text-sm font-bold text-primary')}
    >
      {name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}
