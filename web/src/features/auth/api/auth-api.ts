import { useMutation, useQuery } from '@tanstack/react-query';
import type { Company, Tokens, User } from '../../../../../shared/contract/auth';
import type { InvitationPreview } from '../../../../../shared/contract/team';
import { api, session } from '../../../lib/services';

export interface SignedIn {
  user: User;
  company: Company;
  tokens: Tokens;
}

export interface Registration {
  companyName: string;
  name: string;
  email: string;
  password: string;
}

export const login = (credentials: { email: string; password: string }) => api.post<SignedIn>('/auth/login', credentials);

export const register = (registration: Registration) =>
  api.request<{ user: User; company: Company; emailSent: boolean }>('/auth/register', { method: 'POST', body: registration });

/** The token goes in the body, never in a URL that a log or the browser history keeps (issue 21). */
export const verifyEmail = (token: string) => api.request<SignedIn>('/auth/verify-email', { method: 'POST', body: { token } });

export const resendVerification = (email: string) =>
  api.request<Record<string, never>>('/auth/resend-verification', { method: 'POST', body: { email } });

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
  api.post<{ invitation: InvitationPreview }>('/invitations/preview', { token }).then((data) => data.invitation);

export const acceptInvitation = (input: { token: string; name: string; password: string }) =>
  api.post<SignedIn>('/invitations/accept', input);

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
