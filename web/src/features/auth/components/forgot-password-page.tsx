import { MailCheck } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { TextField } from '@/components/text-field';
import { errorMessage } from '@/lib/api-client';
import { useForgotPassword } from '../api/auth-api';
import { AuthCard } from './auth-card';
import { TextLink } from './text-link';

/** /forgot-password: the answer is the same whether or not the address has an account (docs/product.md: Account self-service). */
export function ForgotPasswordPage() {
  const location = useLocation();
  const forgot = useForgotPassword();
  // The address typed on the sign-in page comes along, so nobody types it twice.
  const [email, setEmail] = useState((location.state as { email?: string } | null)?.email ?? '');
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => input.current?.focus(), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) {
      setError('Email is required');
      input.current?.focus();
      return;
    }
    setError(undefined);
    forgot.mutate(email.trim());
  };

  if (forgot.isSuccess) {
    return (
      <AuthCard title="Check your email">
        <div className="flex flex-col gap-4 text-sm text-muted">
          <MailCheck aria-hidden="true" className="size-10 text-primary" />
          <p role="status">{forgot.data.message ?? 'If an account uses that email, a reset link is on its way.'}</p>
          <TextLink to="/login">Back to sign in</TextLink>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Forgot your password?" description="Enter your email and we'll send you a link to choose a new one.">
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        {forgot.isError && <Alert tone="error">{errorMessage(forgot.error, 'Failed to send the reset email')}</Alert>}
        <TextField
          ref={input}
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={error}
        />
        <Button type="submit" pending={forgot.isPending} pendingLabel="Sending..." className="mt-2 w-full">
          Send reset link
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-muted">
        <TextLink to="/login">Back to sign in</TextLink>
      </p>
    </AuthCard>
  );
}
