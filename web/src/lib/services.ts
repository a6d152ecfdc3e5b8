import { QUERY_RETRY_COUNT } from '@shared/constants';
import { QueryClient } from '@tanstack/react-query';
import { createApiClient } from './api-client';
import { revokeAllObjectUrls } from './object-urls';
import { createSessionStore } from './session';
import { clearAccessRemovedNotice, markSessionEnded } from './session-notice';

/** The app's singletons: one session store, one API client, one query cache. */
export const session = createSessionStore(window.localStorage, window);
session.subscribe(() => {
  if (session.get()) clearAccessRemovedNotice();
  // Signed out, here or in another tab: no picture or recording of the session stays addressable.
  else revokeAllObjectUrls();
});

/** Set by the router once it exists, so a failed refresh can send the browser to /login. */
let signedOutHandler: () => void = () => window.location.assign('/login');
export function onSignedOut(handler: () => void) {
  signedOutHandler = handler;
}

export const api = createApiClient({
  session,
  // Absent only in very old browsers: then each tab refreshes on its own and the server's grace period covers it.
  locks: navigator.locks,
  onSignedOut: (refusal) => {
    markSessionEnded(refusal?.code === 'ACCESS_REMOVED' ? refusal.message : undefined);
    queryClient.clear();
    signedOutHandler();
  },
});

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: QUERY_RETRY_COUNT, refetchOnWindowFocus: false },
  },
});
