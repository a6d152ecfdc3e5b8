import { MIN_PASSWORD_LENGTH } from '@shared/constants';
import { resetPassword } from '@shared/contract/account';
import { CircleCheck } from 'lucide-react';
import { type FormEvent, useEffect } from 'react';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { TextField } from '@/components/text-field';
import { useFormFields } from '@/hooks/use-form-fields';
import { ApiError, errorMessage } from '@/lib/api-client';
import { schemaFieldErrors, withConfirmation } from '@/lib/form';
import { useResetPassword } from '../api/auth-api';
import { useLinkToken } from '../hooks/use-link-token';
import { AuthCard } from './auth-card';
import { TextLink } from './text-link';

const FIELDS = ['password', 'confirm'] as const;

/** /reset-password#token= from the mailed link (docs/product.md: Account self-service). */
export function ResetPasswordPage() {
  const token = useLinkToken();
  const reset = useResetPassword();
  const { values, showErrors, field, focus } = useFormFields(FIELDS, { password: '', confirm: '' });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the cursor starts in the first field, once.
  useEffect(() => focus('password'), []);

  if (!token) {
    return (
      <AuthCard title="Reset link incomplete">
        <div className="flex flex-col gap-4 text-sm text-muted">
          <Alert tone="error">This reset link has no token. Open the link from the email again, or ask for a new one.</Alert>
          <TextLink to="/forgot-password">Ask for a new link</TextLink>
        </div>
      </AuthCard>
    );
  }

  if (reset.isSuccess) {
    return (
      <AuthCard title="Password changed">
        <div className="flex flex-col gap-4 text-sm text-muted">
          <p className="flex items-start gap-3" role="status">
            <CircleCheck aria-hidden="true" className="size-5 shrink-0 text-success" />
            {reset.data.message ?? 'Your password has been changed. Sign in with your new password.'}
          </p>
          <TextLink to="/login">Sign in</TextLink>
        </div>
      </AuthCard>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!showErrors(withConfirmation(schemaFieldErrors(resetPassword.body, { ...values, token }, FIELDS), values))) return;
    reset.mutate({ token, password: values.password });
  };

  // A dead link (used, replaced or expired) can only be answered with a new one.
  const deadLink = reset.error instanceof ApiError && reset.error.code === 'INVALID_TOKEN';

  return (
    <AuthCard title="Choose a new password" description="You will sign in with it from now on, everywhere.">
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        {reset.isError && (
          <Alert tone="error">
            <p>{errorMessage(reset.error, 'Failed to change your password')}</p>
            {deadLink && (
              <p className="mt-2">
                <TextLink to="/forgot-password">Ask for a new link</TextLink>
              </p>
            )}
          </Alert>
        )}
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${MIN_PASSWORD_LENGTH} characters`}
          {...field('password')}
        />
        <TextField label="Confirm new password" type="password" autoComplete="new-password" {...field('confirm')} />
        <Button type="submit" pending={reset.isPending} pendingLabel="Saving..." className="mt-2 w-full">
          Set new password
        </Button>
      </form>
    </AuthCard>
  );
}
