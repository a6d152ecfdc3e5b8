import { CircleAlert, CircleCheck, LoaderCircle } from 'lucide-react';
import { cn } from '@/lib/cn';
import type { Banner } from '../controller/softphone-controller';

const looks = {
  initializing: { icon: LoaderCircle, className: 'border-border bg-surface text-fg', spin: true },
  ready: { icon: CircleCheck, className: 'border-success/40 bg-success-soft text-success', spin: false },
  error: { icon: CircleAlert, className: 'border-danger/40 bg-danger-soft text-danger', spin: false },
} as const;

/**
 * docs/product.md §4 Device status banner, top right: initializing, ready (hidden after 3 s), error. It covers no
 * action: on a phone it sits in the header bar, beside the menu button, over the logo; on a wide
 * screen in the room the shell keeps above every page's header. It scrolls away with that top.
 */
export function DeviceStatusBanner({ banner }: { banner: Banner | null }) {
  const look = banner && looks[banner.state];
  const Icon = look?.icon;
  return (
    // Always present, so screen readers announce each change of the device's state.
    <div
      role="status"
      aria-label="Phone status"
      className="pointer-events-none absolute top-2 right-16 z-40 max-w-[calc(100vw-4.75rem)] lg:top-3 lg:right-3 lg:max-w-[calc(100vw-17rem)]"
    >
      {banner && look && Icon && (
        <div
          className={cn(
            'flex items-start gap-2 rounded-lg border px-3 py-1.5 text-xs shadow-md sm:text-sm lg:py-2',
            look.className,
          )}
        >
          <Icon aria-hidden="true" className={cn('mt-px size-4 shrink-0 sm:mt-0.5', look.spin && 'animate-spin')} />
          <div>
            <p className="font-medium">{banner.message}</p>
            {banner.detail && <p className="text-xs">{banner.detail}</p>}
          </div>
        </div>
      )}
    </div>
  );
}
