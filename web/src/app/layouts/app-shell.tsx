import { DEFAULT_COMPANY_NAME } from '@shared/constants';
import { History, LayoutDashboard, LogOut, Menu, MessagesSquare, Settings, Shield, UsersRound, X } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { LoadingScreen } from '../../components/loading-screen';
import { Logo } from '../../components/logo';
import { PageBoundary } from '../../components/page-boundary';
import { ThemeToggle } from '../../components/theme-toggle';
import { DesktopNotifications } from '../../features/notifications/components/desktop-notifications';
import { useSession } from '../../hooks/use-session';
import { useUnreadSummary } from '../../hooks/use-unread-summary';
import { cn } from '../../lib/cn';
import { useRealtimeConnection } from '../../lib/realtime/realtime';
import { signOut } from '../../lib/sign-out';
import { unreadBadge } from '../../lib/unread-summary';
import { useDocumentTitlePrefix } from '../../lib/use-document-title';
import { ReconnectingNotice } from './reconnecting-notice';

// Its own chunk, loaded after sign-in; it loads the Voice SDK only when the company has a provider.
const SoftphoneWidget = lazy(() =>
  import('../../features/softphone/components/softphone-widget').then((m) => ({ default: m.SoftphoneWidget })),
);

const NAV = [
  { to: '/dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { to: '/contacts', label: 'Contacts', icon: UsersRound },
  { to: '/calls', label: 'Call History', icon: History },
  { to: '/conversations', label: 'Conversations', icon: MessagesSquare },
  { to: '/settings', label: 'Settings', icon: Settings },
] as const;

/** docs/product.md §2 signed-in shell: the sidebar with navigation, company, user, theme toggle and Logout. */
export function AppShell() {
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  useRealtimeConnection(session && { userId: session.user.id, companyId: session.company.id });
  // The conversations with unread messages, in the nav and at the start of every tab title.
  const unread = unreadBadge(useUnreadSummary(Boolean(session)).data);
  useDocumentTitlePrefix(unread ? `(${unread}) ` : '');

  // A page change on a phone closes the menu it was chosen from.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation by design
  useEffect(() => setMenuOpen(false), [location.pathname]);

  if (!session) return null;
  const { user, company } = session;
  const logout = () => {
    signOut();
    navigate('/login', { replace: true });
  };

  return (
    <div className="min-h-screen lg:flex">
      {/* First on the page: the keyboard reaches the content without walking the whole sidebar. */}
      <a
        href="#main"
        className="sr-only rounded-lg bg-surface px-4 py-2 text-sm font-semibold text-primary shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50"
      >
        Skip to main content
      </a>
      <div className="flex items-center justify-between border-b border-border bg-surface px-4 py-3 lg:hidden">
        <Logo />
        {/* The count is on the button too: on a phone the nav that shows it is folded away. */}
        <button
          type="button"
          onClick={() => setMenuOpen((open) => !open)}
          aria-expanded={menuOpen}
          aria-controls="sidebar"
          aria-label={menuOpen ? 'Close menu' : unread ? `Open menu, ${unread} unread` : 'Open menu'}
          className="relative inline-flex size-10 items-center justify-center rounded-lg text-muted hover:bg-surface-muted"
        >
          {menuOpen ? <X aria-hidden="true" className="size-5" /> : <Menu aria-hidden="true" className="size-5" />}
          {!menuOpen && unread && (
            <span
              aria-hidden="true"
              className="absolute -top-1 -right-1 min-w-5 rounded-full bg-primary px-1 text-center text-[0.6875rem] leading-5 font-bold text-primary-fg"
            >
              {unread}
            </span>
          )}
        </button>
      </div>
      <aside
        id="sidebar"
        className={cn(
          'flex-col border-r border-border bg-surface lg:sticky lg:top-0 lg:flex lg:h-screen lg:w-64 lg:shrink-0',
          menuOpen ? 'flex' : 'hidden',
        )}
      >
        <div className="hidden px-5 pt-5 lg:block">
          <Logo />
        </div>
        <div className="px-5 pt-4 pb-2">
          <p className="truncate text-xs font-semibold tracking-wide text-muted uppercase">Company</p>
          <p className="text-sm font-semibold wrap-anywhere text-fg">{company.name || DEFAULT_COMPANY_NAME}</p>
        </div>
        <nav aria-label="Main" className="flex flex-col gap-1 px-3 py-2">
          {NAV.map(({ to, label, icon: Icon }) => (
            <NavLink
              key={to}
              to={to}
              className={({ isActive }) =>
                cn(
                  'flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium',
                  isActive ? 'bg-primary-soft text-primary' : 'text-muted hover:bg-surface-muted hover:text-fg',
                )
              }
            >
              <Icon aria-hidden="true" className="size-4.5" />
              {label}
              {to === '/conversations' && unread && ' '}
              {to === '/conversations' && unread && (
                <span className="ml-auto rounded-full bg-primary px-2 py-0.5 text-xs font-bold text-primary-fg">
                  {unread} <span className="sr-only">unread</span>
                </span>
              )}
            </NavLink>
          ))}
          {user.isPlatformAdmin && (
            <NavLink
              to="/admin"
              className={({ isActive }) =>
                cn(
                  'flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium',
                  isActive ? 'bg-primary-soft text-primary' : 'text-muted hover:bg-surface-muted hover:text-fg',
                )
              }
            >
              <Shield aria-hidden="true" className="size-4.5" />
              Admin
            </NavLink>
          )}
        </nav>
        <div className="mt-auto border-t border-border p-4">
          <div className="flex items-center gap-3">
            <span
              aria-hidden="true"
              className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary-soft text-sm font-bold text-primary"
            >
              {user.name.trim().charAt(0).toUpperCase() || '?'}
            </span>
            <div className="min-w-0 flex-1">
              <p className="text-sm font-semibold wrap-anywhere text-fg">{user.name}</p>
              <p className="text-xs wrap-anywhere text-muted">{user.email}</p>
            </div>
            <ThemeToggle />
          </div>
          <div className="mt-3">
            <DesktopNotifications />
          </div>
          <button
            type="button"
            onClick={logout}
            className="mt-3 flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium text-muted hover:bg-surface-muted hover:text-fg"
          >
            <LogOut aria-hidden="true" className="size-4.5" />
            Logout
          </button>
        </div>
      </aside>
      {/*
        Room for what floats: below, the call widget's corner (--floating-dock, lib/floating-dock); on a
        wide screen, above, the phone status banner (on a phone it sits in the header bar).
      */}
      <main
        id="main"
        tabIndex={-1}
        className={cn(
          'min-w-0 flex-1 px-4 pt-6 pb-[calc(1.5rem+var(--floating-dock,0px))] focus:outline-none',
          'sm:px-8 sm:pt-8 sm:pb-[calc(2rem+var(--floating-dock,0px))] lg:pt-16',
        )}
      >
        <PageBoundary>
          <Suspense fallback={<LoadingScreen />}>
            <Outlet />
          </Suspense>
        </PageBoundary>
      </main>
      <ReconnectingNotice />
      {/* Without its code the widget is missing, not the page (docs/product.md: A new version while a tab is open). */}
      <PageBoundary fallback="none">
        <Suspense fallback={null}>
          <SoftphoneWidget key={user.id} />
        </Suspense>
      </PageBoundary>
    </div>
  );
}
