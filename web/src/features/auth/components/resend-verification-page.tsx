import { MailCheck } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { TextField } from '@/components/text-field';
import { errorMessage } from '@/lib/api-client';
import { useResendVerification } from '../api/auth-api';
import { AuthCard } from './auth-card';
import { TextLink } from './text-link';

export function ResendVerificationPage() {
  const location = useLocation();
  const resend = useResendVerification();
  const [email, setEmail] = useState((location.state as { email?: string } | null)?.email ?? '');
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) {
      setError('Email is required');
      input.current?.focus();
      return;
    }
    setError(undefined);
    resend.mutate(email.trim());
  };

  if (resend.isSuccess) {
    return (
      <AuthCard title="Check your email">
        <div className="flex flex-col gap-4 text-sm text-muted">
          <MailCheck aria-hidden="true" className="size-10 text-primary" />
          <p role="status">{resend.data.message ?? 'A new verification email is on its way.'}</p>
          <TextLink to="/login">Back to sign in</TextLink>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Resend verification email" description="Enter the email you signed up with and we'll send a new link.">
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        {resend.isError && <Alert tone="error">{errorMessage(resend.error, 'Failed to send verification email')}</Alert>}
        <TextField
          ref={input}
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={error}
        />
        <Button type="submit" pending={resend.isPending} pendingLabel="Sending..." className="mt-2 w-full">
          Send verification email
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-muted">
        <TextLink to="/login">Back to sign in</TextLink>
      </p>
    </AuthCard>
  );
}
