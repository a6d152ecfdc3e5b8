import { Bell, BellOff } from 'lucide-react';
import { useMemo } from 'react';
import { browserNotifier, type Notifier } from '../device/notifier';
import { useDesktopNotifications } from '../hooks/use-desktop-notifications';

const STATE_TEXT = {
  granted: 'Desktop notifications on',
  denied: 'Notifications blocked by the browser',
  unsupported: 'Desktop notifications not supported',
} as const;

/**
 * The shell's opt-in for desktop notifications: a button while the browser has not been
 * asked (asking only on that click, never on load), then what the browser allows. `notifier` is for
 * the component tests.
 */
export function DesktopNotifications({ notifier }: { notifier?: Notifier }) {
  const real = useMemo(() => notifier ?? browserNotifier(), [notifier]);
  const { permission, enable } = useDesktopNotifications(real);
  if (permission === 'default') {
    return (
      <button
        type="button"
        onClick={() => void enable()}
        className="flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium text-muted hover:bg-surface-muted hover:text-fg"
      >
        <Bell aria-hidden="true" className="size-4.5" />
        Turn on desktop notifications
      </button>
    );
  }
  const Icon = permission === 'granted' ? Bell : BellOff;
  return (
    <p role="status" className="flex items-center gap-3 px-3 py-2 text-sm text-muted">
      <Icon aria-hidden="true" className="size-4.5 shrink-0" />
      {STATE_TEXT[permission]}
    </p>
  );
}
