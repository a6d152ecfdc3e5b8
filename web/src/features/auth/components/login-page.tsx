import { login as signInContract } from '@shared/contract/auth';
import { type FormEvent, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { TextField } from '@/components/text-field';
import { useFormFields } from '@/hooks/use-form-fields';
import { errorMessage } from '@/lib/api-client';
import { schemaFieldErrors } from '@/lib/form';
import { accessRemovedNotice, clearSessionEndedNotice, companyDeletedNotice, sessionEndedNotice } from '@/lib/session-notice';
import { useLogin } from '../api/auth-api';
import { AuthCard } from './auth-card';
import { TextLink } from './text-link';

const FIELDS = ['email', 'password'] as const;

export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  const login = useLogin();
  const { values, showErrors, field, focus } = useFormFields(FIELDS, { email: '', password: '' });
  // Read once: a forced sign-out brought the person here, and the page says so until they sign in.
  const [sessionEnded] = useState(sessionEndedNotice);
  const [companyDeleted] = useState(companyDeletedNotice);
  const [accessRemoved] = useState(accessRemovedNotice);

  // Signing in is all this page is for: the cursor starts in Email.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on arrival.
  useEffect(() => {
    focus('email');
    clearSessionEndedNotice();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!showErrors(schemaFieldErrors(signInContract.body, values, FIELDS))) return;
    login.mutate(
      { email: values.email.trim(), password: values.password },
      { onSuccess: () => navigate(from && from !== '/login' ? from : '/dashboard', { replace: true }) },
    );
  };

  const message = login.isError ? errorMessage(login.error, 'Login failed') : null;
  const unverified = message?.toLowerCase().includes('verify your email');

  return (
    <AuthCard title="Sign in" description="Welcome back. Sign in to your Switchboard account.">
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        {companyDeleted && !message && (
          <Alert tone="info">Your company is being deleted with all its data. You have been signed out.</Alert>
        )}
        {accessRemoved && !companyDeleted && !message && <Alert tone="warning">{accessRemoved}</Alert>}
        {sessionEnded && !accessRemoved && !companyDeleted && !message && (
          <Alert tone="info">Your session has ended. Please sign in again.</Alert>
        )}
        {message &&
          (unverified ? (
            <Alert tone="warning" title="Email not verified">
              <p>{message}</p>
              <p className="mt-2">
                <TextLink to="/resend-verification" state={{ email: values.email.trim() }}>
                  Resend verification email
                </TextLink>
              </p>
            </Alert>
          ) : (
            <Alert tone="error">{message}</Alert>
          ))}
        <TextField label="Email" type="email" autoComplete="email" {...field('email')} />
        <TextField label="Password" type="password" autoComplete="current-password" {...field('password')} />
        <p className="-mt-2 text-right text-sm">
          <TextLink to="/forgot-password" state={{ email: values.email.trim() }}>
            Forgot password?
          </TextLink>
        </p>
        <Button type="submit" pending={login.isPending} pendingLabel="Signing in..." className="mt-2 w-full">
          Sign in
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-muted">
        New to Switchboard? <TextLink to="/register">Create an account</TextLink>
      </p>
    </AuthCard>
  );
}
