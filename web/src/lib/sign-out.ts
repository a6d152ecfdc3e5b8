import { useMutation } from '@tanstack/react-query';
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
  if (refreshToken) api.post('/auth/logout', { refreshToken }).catch(() => {});
}

/** Ends every session of the user, on every device, this one included. */
export function useSignOutEverywhere() {
  return useMutation({
    mutationFn: () => api.post('/auth/logout-all'),
    onSuccess: () => {
      session.clear();
      queryClient.clear();
    },
    retry: false,
  });
}
