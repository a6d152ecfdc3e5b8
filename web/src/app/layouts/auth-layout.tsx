import { Suspense } from 'react';
import { Link, Outlet } from 'react-router';
import { LoadingScreen } from '../../components/loading-screen';
import { Logo } from '../../components/logo';
import { PageBoundary } from '../../components/page-boundary';
import { ThemeToggle } from '../../components/theme-toggle';

/** docs/product.md §2: the public pages sit centred, with the moon/sun theme toggle. */
export function AuthLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="flex items-center justify-between px-4 py-4 sm:px-8">
        <Link to="/login" aria-label="Switchboard home" className="rounded-lg">
          <Logo />
        </Link>
        <ThemeToggle />
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pt-6 pb-16 sm:items-center sm:pt-0">
        <PageBoundary>
          <Suspense fallback={<LoadingScreen />}>
            <Outlet />
          </Suspense>
        </PageBoundary>
      </main>
    </div>
  );
}
