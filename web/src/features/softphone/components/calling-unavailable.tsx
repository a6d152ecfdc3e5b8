import { RefreshCw } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../../../components/button';
import type { Unavailable } from '../hooks/use-softphone';
import { PANEL } from './call-buttons';

const clockTime = (at: number) => new Date(at).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });

/** SPEC §2/§8: calling could not start, and why; Refresh tries again, and after a 429 the widget does at the time the server gave. */
export function CallingUnavailable({ unavailable, onRefresh }: { unavailable: Unavailable; onRefresh: () => void }) {
  const titleId = useId();
  return (
    <section role="alert" aria-labelledby={titleId} className={PANEL}>
      <h2 id={titleId} className="text-base font-semibold text-danger">
        Calling unavailable
      </h2>
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
