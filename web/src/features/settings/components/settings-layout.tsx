import { Building2, Inbox, Phone, PhoneOutgoing, Plug, UserRound, UsersRound } from 'lucide-react';
import { Suspense } from 'react';
import { NavLink, Outlet } from 'react-router';
import { LoadingScreen } from '@/components/loading-screen';
import { cn } from '@/lib/cn';

const MENU = [
  { to: 'providers', label: 'Providers', icon: Plug },
  { to: 'channels', label: 'Channels', icon: Phone },
  { to: 'inboxes', label: 'Inboxes', icon: Inbox },
  { to: 'company', label: 'Company', icon: Building2 },
  { to: 'calling', label: 'Calling', icon: PhoneOutgoing },
  { to: 'team', label: 'Team', icon: UsersRound },
  { to: 'profile', label: 'Profile', icon: UserRound },
] as const;

/** docs/product.md §2: every settings page sits in this shell with its side menu. */
export function SettingsLayout() {
  return (
    <div className="mx-auto max-w-6xl">
      <h1 className="sr-only">Settings</h1>
      <div className="flex flex-col gap-6 md:flex-row">
        <nav aria-label="Settings" className="md:w-52 md:shrink-0">
          <p aria-hidden="true" className="mb-3 hidden text-xs font-semibold tracking-wide text-muted uppercase md:block">
            Settings
          </p>
          {/* Wraps on narrow screens: every section stays visible, nothing hides behind a sideways scroll. */}
          <ul className="flex flex-wrap gap-1 md:flex-col">
            {MENU.map(({ to, label, icon: Icon }) => (
              <li key={to}>
                <NavLink
                  to={to}
                  className={({ isActive }) =>
                    cn(
                      'flex items-center gap-2.5 rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap',
                      isActive ? 'bg-primary-soft text-primary' : 'text-muted hover:bg-surface-muted hover:text-fg',
                    )
                  }
                >
                  <Icon aria-hidden="true" className="size-4" />
                  {label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="min-w-0 flex-1">
          <Suspense fallback={<LoadingScreen />}>
            <Outlet />
          </Suspense>
        </div>
      </div>
    </div>
  );
}
