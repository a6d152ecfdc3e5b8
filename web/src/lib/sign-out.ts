import * as auth from '@shared/contract/endpoints/auth';
import { useMutation } from '@tanstack/react-query';
import { ApiError, REFRESH_ATTEMPTS, refreshDelayMs } from './api-client';
import { api, queryClient, session } from './services';

/** Signing out is the shell's (Logout) and the Profile page's (Sign out everywhere): one place for both. */

/**
 * Logout: the session ends on the server too, so a copied refresh token dies with it. The browser is
 * cleared at once; the server call needs no answer (it works without the access token).
 */
export function signOut() {
  const refreshToken = session.get()?.refreshToken;
  session.clear();
  queryClient.clear();
  if (refreshToken) void endOnServer(refreshToken);
}

/**
 * Throttled (429), the server busy (5xx) or offline: the session would stay live on the server, so the
 * call is tried again with the refresh's back-off. Any other answer is final.
 */
async function endOnServer(refreshToken: string) {
  for (let attempt = 1; attempt <= REFRESH_ATTEMPTS; attempt++) {
    try {
      await api.call(auth.logout, { body: { refreshToken } });
      return;
    } catch (error) {
      const retriable = !(error instanceof ApiError) || error.status === 429 || error.status >= 500;
      if (!retriable || attempt === REFRESH_ATTEMPTS) return;
      await new Promise((resolve) => setTimeout(resolve, refreshDelayMs(attempt, error)));
    }
  }
}

/** Ends every session of the user, on every device, this one included. */
export function useSignOutEverywhere() {
  return useMutation({
    mutationFn: () => api.call(auth.logoutAll),
    onSuccess: () => {
      session.clear();
      queryClient.clear();
    },
    retry: false,
  });
}
