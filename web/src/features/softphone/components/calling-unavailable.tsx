import { RefreshCw } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../../../components/button';
import { INIT_FAILED } from '../hooks/use-softphone';
import { PANEL } from './call-buttons';

/** SPEC §2/§8: calling could not start; Refresh tries again. */
export function CallingUnavailable({ onRefresh }: { onRefresh: () => void }) {
  const titleId = useId();
  return (
    <section role="alert" aria-labelledby={titleId} className={PANEL}>
      <h2 id={titleId} className="text-base font-semibold text-danger">
        Calling unavailable
      </h2>
      <p className="mt-1 text-sm text-fg">{INIT_FAILED}</p>
      <Button variant="secondary" onClick={onRefresh} className="mt-3 w-full">
        <RefreshCw aria-hidden="true" className="size-4" />
        Refresh
      </Button>
    </section>
  );
}
