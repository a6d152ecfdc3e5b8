import { RefreshCw, X } from 'lucide-react';
import { type KeyboardEvent, useId } from 'react';
import { Button } from '../../../components/button';
import { IconButton } from '../../../components/icon-button';
import { INIT_FAILED } from '../hooks/use-softphone';
import { PANEL } from './call-buttons';

/**
 * SPEC §2/§8: calling could not start; Refresh tries again. Close (or Escape) puts it away, so it
 * covers nothing on a phone; the call button brings it back.
 */
export function CallingUnavailable({ onRefresh, onClose }: { onRefresh: () => void; onClose: () => void }) {
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
      <p className="mt-1 text-sm text-fg">{INIT_FAILED}</p>
      <Button variant="secondary" onClick={onRefresh} className="mt-3 w-full">
        <RefreshCw aria-hidden="true" className="size-4" />
        Refresh
      </Button>
    </section>
  );
}
