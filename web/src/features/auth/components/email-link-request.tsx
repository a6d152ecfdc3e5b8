import type { UseMutationResult } from '@tanstack/react-query';
import { MailCheck } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { TextField } from '@/components/text-field';
import { errorMessage } from '@/lib/api-client';
import { AuthCard } from './auth-card';
import { TextLink } from './text-link';

/**
 * A page that asks for an e-mail address and mails a link to it (a new verification link, a password
 * reset link), then says "Check your email" with the server's sentence. The address typed on the
 * sign-in page comes along, so nobody types it twice.
 */
export function EmailLinkRequest({
  request,
  title,
  description,
  submitLabel,
  sent,
  failed,
  focusFirst = false,
}: {
  request: UseMutationResult<{ message?: string }, Error, string>;
  title: string;
  description: string;
  submitLabel: string;
  /** Shown when the answer carries no message of its own. */
  sent: string;
  /** Shown when the request failed without a message the person can use. */
  failed: string;
  focusFirst?: boolean;
}) {
  const location = useLocation();
  const [email, setEmail] = useState((location.state as { email?: string } | null)?.email ?? '');
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (focusFirst) input.current?.focus();
  }, [focusFirst]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) {
      setError('Email is required');
      input.current?.focus();
      return;
    }
    setError(undefined);
    request.mutate(email.trim());
  };

  if (request.isSuccess) {
    return (
      <AuthCard title="Check your email">
        <div className="flex flex-col gap-4 text-sm text-muted">
          <MailCheck aria-hidden="true" className="size-10 text-primary" />
          <p role="status">{request.data.message ?? sent}</p>
          <TextLink to="/login">Back to sign in</TextLink>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={title} description={description}>
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        {request.isError && <Alert tone="error">{errorMessage(request.error, failed)}</Alert>}
        <TextField
          ref={input}
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={error}
        />
        <Button type="submit" pending={request.isPending} pendingLabel="Sending..." className="mt-2 w-full">
          {submitLabel}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-muted">
        <TextLink to="/login">Back to sign in</TextLink>
      </p>
    </AuthCard>
  );
}
