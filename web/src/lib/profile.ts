import * as auth from '@shared/contract/endpoints/auth';
import { queryOptions } from '@tanstack/react-query';
import { api, session } from './services';

/**
 * The signed-in user and company as the server has them now (GET /me), written into the stored
 * session as they arrive: the Admin link, /admin and the role checks read the stored user, so it
 * follows a role change or the operator naming a platform administrator without signing in again.
 */
export const profileQuery = () =>
  queryOptions({
    queryKey: ['me'] as const,
    queryFn: async () => {
      const profile = await api.call(auth.me);
      session.setProfile(profile);
      return profile;
    },
  });
