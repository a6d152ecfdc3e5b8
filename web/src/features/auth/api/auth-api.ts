import * as account from '@shared/contract/endpoints/account';
import * as auth from '@shared/contract/endpoints/auth';
import * as team from '@shared/contract/endpoints/team';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { BodyOf } from '@/lib/api-client';
import { api, session } from '@/lib/services';

export type Registration = BodyOf<typeof auth.register>;

export const login = (credentials: BodyOf<typeof auth.login>) => api.call(auth.login, { body: credentials });

export const register = (registration: Registration) => api.callWithMessage(auth.register, { body: registration });

/** The token goes in the body, never in a URL that a log or the browser history keeps. */
export const verifyEmail = (token: string) => api.callWithMessage(auth.verifyEmail, { body: { token } });

export const resendVerification = (email: string) => api.callWithMessage(auth.resendVerification, { body: { email } });

export function useLogin() {
  return useMutation({ mutationFn: login, onSuccess: (data) => session.signIn(data), retry: false });
}

export function useRegister() {
  return useMutation({ mutationFn: register, retry: false });
}

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification, retry: false });
}

/** A verification token works once, so this query never retries or refetches. */
export function useVerifyEmail(token: string | null) {
  return useQuery({
    queryKey: ['verify-email', token],
    queryFn: async () => {
      const result = await verifyEmail(token ?? '');
      session.signIn(result.data);
      return result;
    },
    enabled: Boolean(token),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
}

/** A POST for the same reason as verifyEmail: the token stays out of every URL. */
export const previewInvitation = (token: string) =>
  api.call(team.previewInvitation, { body: { token } }).then((data) => data.invitation);

export const acceptInvitation = (input: BodyOf<typeof team.acceptInvitation>) => api.call(team.acceptInvitation, { body: input });

/** What an invitation link stands for; a dead link answers why, so this never retries. */
export function useInvitationPreview(token: string | null) {
  return useQuery({
    queryKey: ['invitation', token],
    queryFn: () => previewInvitation(token ?? ''),
    enabled: Boolean(token),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useAcceptInvitation() {
  return useMutation({ mutationFn: acceptInvitation, onSuccess: (data) => session.signIn(data), retry: false });
}

/** 202 with the same message whether or not the address has an account. */
export const forgotPassword = (email: string) => api.callWithMessage(account.forgotPassword, { body: { email } });

/** The link's token in the body, never in a URL, as for verifyEmail. */
export const resetPassword = (input: BodyOf<typeof account.resetPassword>) =>
  api.callWithMessage(account.resetPassword, { body: input });

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword, retry: false });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword, retry: false });
}
