import { useQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { LoadingScreen } from '../../components/loading-screen';
import { PageBoundary } from '../../components/page-boundary';
import { useSession } from '../../hooks/use-session';
import { profileQuery } from '../../lib/profile';

/**
 * Signed-in routes. A visitor without a session goes to /login and comes back after signing in. A
 * restored session is refreshed from /me in the background (which also renews an expired token).
 */
export function RequireSession() {
  const session = useSession();
  const location = useLocation();
  useQuery({ ...profileQuery(), enabled: Boolean(session) });

  if (!session) {
    return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}${location.hash}` }} />;
  }
  // The shell is a lazy chunk (router.tsx): "Loading..." until it is in.
  return (
    <PageBoundary>
      <Suspense fallback={<LoadingScreen />}>
        <Outlet />
      </Suspense>
    </PageBoundary>
  );
}

/**
 * /login and /register send a signed-in person on to the app: to the page that sent them to sign in,
 * if any (signing in re-renders this guard before the login form can navigate).
 */
export function PublicOnly() {
  const session = useSession();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  return session ? <Navigate to={from && from !== '/login' ? from : '/dashboard'} replace /> : <Outlet />;
}
