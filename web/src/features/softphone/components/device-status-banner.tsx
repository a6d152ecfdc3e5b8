import { CircleAlert, CircleCheck, LoaderCircle } from 'lucide-react';
import { cn } from '@/lib/cn';
import type { Banner } from '../controller/softphone-controller';

const looks = {
  initializing: { icon: LoaderCircle, className: 'border-border bg-surface text-fg', spin: true },
  ready: { icon: CircleCheck, className: 'border-success/40 bg-success-soft text-success', spin: false },
  error: { icon: CircleAlert, className: 'border-danger/40 bg-danger-soft text-danger', spin: false },
} as const;

/** What a phone's header bar has room for, beside the logo; screen readers still hear the whole message. */
const SHORT = { initializing: 'Connecting…', ready: 'Phone ready' } as const;

/**
 * docs/product.md §4 Device status banner, top right: initializing, ready (hidden after 3 s), error. It covers no
 * action: on a phone it sits in the header bar, beside the menu button, in a few words that leave the
 * logo clear (an error, which must be read whole, may cover the logo); on a wide screen in the room the
 * shell keeps above every page's header. It scrolls away with that top.
 */
export function DeviceStatusBanner({ banner }: { banner: Banner | null }) {
  const look = banner && looks[banner.state];
  const Icon = look?.icon;
  const short = banner && banner.state !== 'error' ? SHORT[banner.state] : null;
  return (
    // Always present, so screen readers announce each change of the device's state.
    <div
      role="status"
      aria-label="Phone status"
      className={cn(
        'pointer-events-none absolute top-2 right-16 z-40 lg:top-3 lg:right-3 lg:left-auto lg:max-w-[calc(100vw-17rem)]',
        // The logo ends 11.2 rem in: a short banner keeps right of it, flush against the menu button.
        short ? 'left-[11.5rem] flex justify-end' : 'max-w-[calc(100vw-4.75rem)]',
      )}
    >
      {banner && look && Icon && (
        <div
          className={cn(
            'flex items-start rounded-lg border py-1.5 shadow-md sm:gap-2 sm:px-3 sm:text-sm lg:py-2',
            // Its few words on a phone fit the room beside the logo at 360 px.
            short ? 'gap-1 px-1.5 text-[0.6875rem]' : 'gap-2 px-3 text-xs',
            look.className,
          )}
        >
          <Icon
            aria-hidden="true"
            className={cn('mt-px shrink-0 sm:mt-0.5', short ? 'size-3.5 sm:size-4' : 'size-4', look.spin && 'animate-spin')}
          />
          <div className="min-w-0">
            {short ? (
              <p className="font-medium">
                <span aria-hidden="true" className="whitespace-nowrap lg:hidden">
                  {short}
                </span>
                <span className="max-lg:sr-only">{banner.message}</span>
              </p>
            ) : (
              <p className="font-medium">{banner.message}</p>
            )}
            {banner.detail && <p className="text-xs">{banner.detail}</p>}
          </div>
        </div>
      )}
    </div>
  );
}
