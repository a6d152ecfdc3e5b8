import { RefreshCw } from 'lucide-react';
import { useEffect } from 'react';
import { noticeInPlaceShown, useNewVersionState, useNoticeInPlace } from '../lib/new-version';
import { unsavedWork } from '../lib/unsaved-work';
import { Button } from './button';
import { Card } from './card';
import { Spinner } from './spinner';

const reload = () => window.location.reload();

/** What the floating notice adds while the tab holds work a reload would lose. */
const LOST_BY_RELOAD = { draft: 'Reloading clears your draft.', call: 'Reloading ends your call.' } as const;

/**
 * In place of a page whose code did not load (docs/product.md: A new version while a tab is open):
 * "Loading the new version…" while the tab reloads itself, else the notice with its Reload button.
 */
export function NewVersionInPlace() {
  const state = useNewVersionState();
  useEffect(() => noticeInPlaceShown(), []);
  // Offline the code is out of reach rather than gone: the tab does not reload (lib/new-version.ts).
  if (state === 'current' && !navigator.onLine) {
    return (
      <div className="flex min-h-[50vh] items-center justify-center">
        <Card className="w-full max-w-md text-center" role="alert">
          <h2 className="text-lg font-bold text-fg">This page could not be loaded</h2>
          <p className="mt-2 text-sm text-muted">Cannot reach Switchboard. Check your connection, then reload.</p>
          <Button className="mt-5" onClick={reload}>
            <RefreshCw aria-hidden="true" className="size-4" />
            Reload
          </Button>
        </Card>
      </div>
    );
  }
  if (state !== 'notice') {
    return (
      <div className="flex min-h-[50vh] items-center justify-center gap-3 text-muted" role="status">
        <Spinner />
        <span>Loading the new version…</span>
      </div>
    );
  }
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <Card className="w-full max-w-md text-center" role="alert">
        <h2 className="text-lg font-bold text-fg">A new version is available</h2>
        <p className="mt-2 text-sm text-muted">
          Switchboard was updated since this tab opened. Reload to open this page in the new version.
        </p>
        <Button className="mt-5" onClick={reload}>
          <RefreshCw aria-hidden="true" className="size-4" />
          Reload
        </Button>
      </Card>
    </div>
  );
}

/**
 * At the bottom of every page while the tab waits for a reload it did not do by itself (a draft or a
 * call, or a reload for a new version just before): the page stays usable, and Reload is one click away.
 */
export function NewVersionNotice() {
  const state = useNewVersionState();
  const inPlace = useNoticeInPlace();
  // Only when there is something to say: the shell's own status regions stay the page's only ones.
  if (state !== 'notice' || inPlace) return null;
  const work = unsavedWork();
  return (
    <div role="alert" className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4">
      <div className="pointer-events-auto flex flex-wrap items-center gap-3 rounded-xl border border-border bg-surface px-4 py-3 text-sm text-fg shadow-lg">
        <p>
          <span className="font-semibold">A new version is available.</span>
          {work && <span className="text-muted"> {LOST_BY_RELOAD[work]}</span>}
        </p>
        <Button onClick={reload} className="min-h-9 py-1.5">
          <RefreshCw aria-hidden="true" className="size-4" />
          Reload
        </Button>
      </div>
    </div>
  );
}
