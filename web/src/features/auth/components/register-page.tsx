import { MIN_PASSWORD_LENGTH } from '@shared/constants';
import { register } from '@shared/contract/auth';
import { MailCheck } from 'lucide-react';
import type { FormEvent } from 'react';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { TextField } from '@/components/text-field';
import { useFormFields } from '@/hooks/use-form-fields';
import { errorMessage } from '@/lib/api-client';
import { schemaFieldErrors, serverFieldErrors } from '@/lib/form';
import { type Registration, useRegister } from '../api/auth-api';
import { AuthCard } from './auth-card';
import { TextLink } from './text-link';

const FIELDS = ['companyName', 'name', 'email', 'password'] as const;

export function RegisterPage() {
  const registration = useRegister();
  const { values, showErrors, field } = useFormFields<keyof Registration>(FIELDS, {
    companyName: '',
    name: '',
    email: '',
    password: '',
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!showErrors(schemaFieldErrors(register.body, values, FIELDS))) return;
    registration.mutate(
      { ...values, companyName: values.companyName.trim(), name: values.name.trim(), email: values.email.trim() },
      {
        onError: (error) => showErrors(serverFieldErrors(error, FIELDS)),
      },
    );
  };

  if (registration.isSuccess) {
    const { data, message } = registration.data;
    return (
      <AuthCard title="Check your email">
        <div className="flex flex-col gap-4 text-sm text-muted">
          <MailCheck aria-hidden="true" className="size-10 text-primary" />
          {data.emailSent ? (
            <p>
              We sent a verification link to <strong className="text-fg">{data.user.email}</strong>. Open it to activate your
              account, then sign in.
            </p>
          ) : (
            <Alert tone="warning">{message}</Alert>
          )}
          <p>
            Didn&apos;t get it?{' '}
            <TextLink to="/resend-verification" state={{ email: data.user.email }}>
              Resend verification email
            </TextLink>
          </p>
          <p>
            <TextLink to="/login">Back to sign in</TextLink>
          </p>
        </div>
      </AuthCard>
    );
  }

  const fieldError = Object.keys(serverFieldErrors(registration.error, FIELDS)).length > 0;
  const message = registration.isError && !fieldError ? errorMessage(registration.error, 'Registration failed') : null;

  return (
    <AuthCard title="Create your account" description="Set up Switchboard for your company. It takes a minute.">
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        {message && <Alert tone="error">{message}</Alert>}
        <TextField label="Company name" autoComplete="organization" {...field('companyName')} />
        <TextField label="Full name" autoComplete="name" {...field('name')} />
        <TextField label="Email" type="email" autoComplete="email" {...field('email')} />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${MIN_PASSWORD_LENGTH} characters`}
          {...field('password')}
        />
        <Button type="submit" pending={registration.isPending} pendingLabel="Creating account..." className="mt-2 w-full">
          Create account
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-muted">
        Already have an account? <TextLink to="/login">Sign in</TextLink>
      </p>
    </AuthCard>
  );
}
