import { MIN_PASSWORD_LENGTH } from '@shared/constants';
import { changePassword, updateProfile } from '@shared/contract/account';
import type { FormEvent } from 'react';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { Card } from '@/components/card';
import { TextField } from '@/components/text-field';
import { useFormFields } from '@/hooks/use-form-fields';
import { errorMessage } from '@/lib/api-client';
import { schemaFieldErrors, serverFieldErrors, withConfirmation } from '@/lib/form';
import { useChangePassword, useUpdateProfile } from '../api/profile-api';
import { NameForm } from './name-form';

/** Settings → Profile: the person's own name (docs/product.md: Account self-service). */
export function ProfileNameForm({ name }: { name: string }) {
  const update = useUpdateProfile();
  return (
    <NameForm
      name={name}
      label="Full name"
      autoComplete="name"
      schema={updateProfile.body}
      mutation={update}
      saveLabel="Save name"
      savedNotice="Your name was saved."
      failedMessage="Failed to save your name"
    />
  );
}

const FIELDS = ['currentPassword', 'newPassword', 'confirm'] as const;
const EMPTY = { currentPassword: '', newPassword: '', confirm: '' };

/** Settings → Profile: a new password, given the current one; every other session ends. */
export function PasswordForm() {
  const change = useChangePassword();
  const { values, setValues, errors, showErrors, field, focus } = useFormFields(FIELDS, EMPTY);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = withConfirmation(schemaFieldErrors(changePassword.body, values, FIELDS), values, 'newPassword');
    if (!showErrors(found)) return;
    change.mutate(
      { currentPassword: values.currentPassword, newPassword: values.newPassword },
      {
        onSuccess: () => setValues(EMPTY),
        onError: (error) => {
          // A wrong current password: the cursor goes back to it, the new one stays typed.
          if (serverFieldErrors(error, FIELDS).currentPassword) focus('currentPassword');
        },
      },
    );
  };

  const fromServer = serverFieldErrors(change.error, FIELDS);
  const input = (name: (typeof FIELDS)[number]) => {
    const bound = field(name, () => change.isSuccess && change.reset());
    return { ...bound, error: errors[name] ?? fromServer[name] };
  };

  return (
    <Card className="mt-6 flex max-w-xl flex-col gap-3">
      <h2 className="text-base font-semibold text-fg">Password</h2>
      <p className="text-sm text-muted">Changing it signs you out on every other device and browser; this one stays signed in.</p>
      <form noValidate onSubmit={submit} className="flex flex-col gap-3">
        <TextField label="Current password" type="password" autoComplete="current-password" {...input('currentPassword')} />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${MIN_PASSWORD_LENGTH} characters`}
          {...input('newPassword')}
        />
        <TextField label="Confirm new password" type="password" autoComplete="new-password" {...input('confirm')} />
        {change.isError && Object.keys(fromServer).length === 0 && (
          <Alert tone="error">{errorMessage(change.error, 'Failed to change your password')}</Alert>
        )}
        {change.isSuccess && (
          <Alert tone="success">{change.data.message ?? 'Your password was changed. You were signed out everywhere else.'}</Alert>
        )}
        <Button type="submit" className="self-start" pending={change.isPending} pendingLabel="Changing...">
          Change password
        </Button>
      </form>
    </Card>
  );
}
