import { MIN_PASSWORD_LENGTH } from '@shared/constants';
import { type FormEvent, useRef, useState } from 'react';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { Card } from '@/components/card';
import { TextField } from '@/components/text-field';
import { ApiError, errorMessage } from '@/lib/api-client';
import { type FieldErrors, focusFirstInvalid } from '@/lib/form';
import { useChangePassword, useUpdateProfile } from '../api/profile-api';

/** The server's message for one field, when it refused that field. */
function fieldError(error: unknown, field: string): string | undefined {
  const fields = error instanceof ApiError ? (error.details?.fields as Record<string, string> | undefined) : undefined;
  return fields?.[field];
}

/** Settings → Profile: the person's own name (docs/product.md: Account self-service). */
export function NameForm({ name }: { name: string }) {
  const update = useUpdateProfile();
  const [value, setValue] = useState(name);
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  const unchanged = value.trim() === name;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!value.trim()) {
      setError('Full name is required');
      input.current?.focus();
      return;
    }
    setError(undefined);
    update.mutate(value.trim(), { onSuccess: (user) => setValue(user.name) });
  };

  const serverField = fieldError(update.error, 'name');
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-3">
      <TextField
        ref={input}
        label="Full name"
        autoComplete="name"
        maxLength={120}
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          if (update.isSuccess) update.reset();
        }}
        error={error ?? serverField}
      />
      {update.isError && !serverField && <Alert tone="error">{errorMessage(update.error, 'Failed to save your name')}</Alert>}
      {update.isSuccess && <Alert tone="success">Your name was saved.</Alert>}
      <Button type="submit" className="self-start" disabled={unchanged} pending={update.isPending} pendingLabel="Saving...">
        Save name
      </Button>
    </form>
  );
}

const FIELDS = ['currentPassword', 'newPassword', 'confirm'] as const;
type Field = (typeof FIELDS)[number];
const EMPTY = { currentPassword: '', newPassword: '', confirm: '' };

/** Settings → Profile: a new password, given the current one; every other session ends. */
export function PasswordForm() {
  const change = useChangePassword();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const refs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: FieldErrors<Field> = {};
    if (!values.currentPassword) found.currentPassword = 'Current password is required';
    if (!values.newPassword) found.newPassword = 'New password is required';
    else if (values.newPassword.length < MIN_PASSWORD_LENGTH)
      found.newPassword = `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`;
    if (!found.newPassword && values.confirm !== values.newPassword) found.confirm = 'The passwords do not match';
    setErrors(found);
    if (Object.keys(found).length) return focusFirstInvalid(FIELDS, found, refs.current);
    change.mutate(
      { currentPassword: values.currentPassword, newPassword: values.newPassword },
      {
        onSuccess: () => setValues(EMPTY),
        onError: (error) => {
          // A wrong current password: the cursor goes back to it, the new one stays typed.
          if (fieldError(error, 'currentPassword')) refs.current.currentPassword?.focus();
        },
      },
    );
  };

  const field = (name: Field) => errors[name] ?? fieldError(change.error, name);
  const serverFields = FIELDS.some((f) => fieldError(change.error, f));
  const set = (name: Field) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setValues({ ...values, [name]: e.target.value });
    if (change.isSuccess) change.reset();
  };

  return (
    <Card className="mt-6 flex max-w-xl flex-col gap-3">
      <h2 className="text-base font-semibold text-fg">Password</h2>
      <p className="text-sm text-muted">Changing it signs you out on every other device and browser; this one stays signed in.</p>
      <form noValidate onSubmit={submit} className="flex flex-col gap-3">
        <TextField
          ref={(el) => {
            refs.current.currentPassword = el;
          }}
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={values.currentPassword}
          onChange={set('currentPassword')}
          error={field('currentPassword')}
        />
        <TextField
          ref={(el) => {
            refs.current.newPassword = el;
          }}
          label="New password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${MIN_PASSWORD_LENGTH} characters`}
          value={values.newPassword}
          onChange={set('newPassword')}
          error={field('newPassword')}
        />
        <TextField
          ref={(el) => {
            refs.current.confirm = el;
          }}
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          value={values.confirm}
          onChange={set('confirm')}
          error={errors.confirm}
        />
        {change.isError && !serverFields && (
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
