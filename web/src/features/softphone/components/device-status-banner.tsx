import { CircleAlert, CircleCheck, LoaderCircle } from 'lucide-react';
import { cn } from '../../../lib/cn';
import type { Banner } from '../hooks/use-softphone';

const looks = {
  initializing: { icon: LoaderCircle, className: 'border-border bg-surface text-fg', spin: true },
  ready: { icon: CircleCheck, className: 'border-success/40 bg-success-soft text-success', spin: false },
  error: { icon: CircleAlert, className: 'border-danger/40 bg-danger-soft text-danger', spin: false },
} as const;

/**
 * SPEC §4 Device status banner, top right (below the phone layout's header, whose menu button it would
 * hide): initializing, ready (hidden after 3 s), error.
 */
export function DeviceStatusBanner({ banner }: { banner: Banner | null }) {
  const look = banner && looks[banner.state];
  const Icon = look?.icon;
  return (
    // Always present, so screen readers announce each change of the device's state.
    <div
      role="status"
      aria-label="Phone status"
      className="pointer-events-none fixed top-[4.5rem] right-3 z-40 max-w-[calc(100vw-1.5rem)] lg:top-3"
    >
      {banner && look && Icon && (
        <div className={cn('flex items-start gap-2 rounded-lg border px-3 py-2 text-sm shadow-md', look.className)}>
          <Icon aria-hidden="true" className={cn('mt-0.5 size-4 shrink-0', look.spin && 'animate-spin')} />
          <div>
            <p className="font-medium">{banner.message}</p>
            {banner.detail && <p className="text-xs">{banner.detail}</p>}
          </div>
        </div>
      )}
    </div>
  );
}
