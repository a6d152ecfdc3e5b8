import { useMutation, useQuery } from '@tanstack/react-query';
import type { Company, Tokens, User } from '../../../../../shared/contract/auth';
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

export const verifyEmail = (token: string) => api.request<SignedIn>('/auth/verify-email', { query: { token } });

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
