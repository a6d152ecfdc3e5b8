import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { TextField } from '@/components/text-field';
import { errorMessage } from '@/lib/api-client';
import { type FieldErrors, focusFirstInvalid } from '@/lib/form';
import { accessRemovedNotice, clearSessionEndedNotice, companyDeletedNotice, sessionEndedNotice } from '@/lib/session-notice';
import { useLogin } from '../api/auth-api';
import { AuthCard } from './auth-card';
import { TextLink } from './text-link';

const FIELDS = ['email', 'password'] as const;
type Field = (typeof FIELDS)[number];

export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  const login = useLogin();
  const [values, setValues] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const refs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});
  // Read once: a forced sign-out brought the person here, and the page says so until they sign in.
  const [sessionEnded] = useState(sessionEndedNotice);
  const [companyDeleted] = useState(companyDeletedNotice);
  const [accessRemoved] = useState(accessRemovedNotice);

  // Signing in is all this page is for: the cursor starts in Email.
  useEffect(() => {
    refs.current.email?.focus();
    clearSessionEndedNotice();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: FieldErrors<Field> = {};
    if (!values.email.trim()) found.email = 'Email is required';
    if (!values.password) found.password = 'Password is required';
    setErrors(found);
    if (Object.keys(found).length) return focusFirstInvalid(FIELDS, found, refs.current);
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
        <TextField
          ref={(el) => {
            refs.current.email = el;
          }}
          label="Email"
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={(e) => setValues({ ...values, email: e.target.value })}
          error={errors.email}
        />
        <TextField
          ref={(el) => {
            refs.current.password = el;
          }}
          label="Password"
          type="password"
          autoComplete="current-password"
          value={values.password}
          onChange={(e) => setValues({ ...values, password: e.target.value })}
          error={errors.password}
        />
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
