import { RefreshCw, X } from 'lucide-react';
import { type KeyboardEvent, useId } from 'react';
import { Button } from '@/components/button';
import { IconButton } from '@/components/icon-button';
import type { Unavailable } from '../controller/softphone-controller';
import { PANEL } from './call-buttons';

const clockTime = (at: number) => new Date(at).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });

/**
 * docs/product.md §2/§8: calling could not start, and why; Refresh tries again, and after a 429 the widget does
 * at the time the server gave. Close (or Escape) puts it away, so it covers nothing on a phone; the
 * call button brings it back.
 */
export function CallingUnavailable({
  unavailable,
  onRefresh,
  onClose,
}: {
  unavailable: Unavailable;
  onRefresh: () => void;
  onClose: () => void;
}) {
  const titleId = useId();
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    onClose();
  };
  return (
    <section role="alert" aria-labelledby={titleId} tabIndex={-1} data-dock-focus onKeyDown={onKeyDown} className={PANEL}>
      <div className="flex items-start justify-between gap-2">
        <h2 id={titleId} className="text-base font-semibold text-danger">
          Calling unavailable
        </h2>
        <IconButton label="Close" icon={X} onClick={onClose} className="-my-1.5 -mr-1.5 size-8" />
      </div>
      <p className="mt-1 text-sm text-fg">{unavailable.message}</p>
      {unavailable.retryAt !== null && (
        <p className="mt-1 text-sm text-muted">Calling will try again by itself at {clockTime(unavailable.retryAt)}.</p>
      )}
      <Button variant="secondary" onClick={onRefresh} className="mt-3 w-full">
        <RefreshCw aria-hidden="true" className="size-4" />
        Refresh
      </Button>
    </section>
  );
}
