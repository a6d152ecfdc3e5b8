import * as account from '@shared/contract/endpoints/account';
import { useMutation } from '@tanstack/react-query';
import type { BodyOf } from '@/lib/api-client';
import { profileQuery } from '@/lib/profile';
import { api, queryClient, session } from '@/lib/services';

/** PATCH /me: the signed-in person's own name, written into the stored session at once. */
export const updateProfile = (name: string) => api.call(account.updateProfile, { body: { name } }).then((d) => d.user);

export function useUpdateProfile() {
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => {
      const current = session.get();
      if (current) session.setProfile({ user, company: current.company });
      void queryClient.invalidateQueries({ queryKey: profileQuery().queryKey });
    },
    retry: false,
  });
}

/** POST /me/password: this session stays; the server ends every other one. */
export const changePassword = (input: BodyOf<typeof account.changePassword>) =>
  api.callWithMessage(account.changePassword, { body: input });

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword, retry: false });
}
