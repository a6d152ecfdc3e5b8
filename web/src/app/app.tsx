import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { BrowserRouter, useNavigate } from 'react-router';
import { NewVersionNotice } from '../components/new-version-notice';
import { PageBoundary } from '../components/page-boundary';
import { onSignedOut, queryClient } from '../lib/services';
import { AppRoutes } from './router';

/** A failed token refresh ends the session; the router then shows /login without a page reload. */
function SignedOutRedirect() {
  const navigate = useNavigate();
  useEffect(() => onSignedOut(() => navigate('/login', { replace: true })), [navigate]);
  return null;
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <SignedOutRedirect />
        {/* The last line: a failure no layout caught still leaves a notice, not a blank tab. */}
        <PageBoundary>
          <AppRoutes />
        </PageBoundary>
        <NewVersionNotice />
      </BrowserRouter>
    </QueryClientProvider>
  );
}
