import type { UseMutationResult } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import type * as z from 'zod/mini';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { TextField } from '@/components/text-field';
import { useFormFields } from '@/hooks/use-form-fields';
import { errorMessage } from '@/lib/api-client';
import { schemaFieldErrors, serverFieldErrors } from '@/lib/form';

const FIELDS = ['name'] as const;

/**
 * One name saved on its own (the person's, the company's): checked against the route's own body
 * schema before sending (docs/product.md §5), saved trimmed, "Save" off while it is the name the page
 * was given (the session's, which a save updates), and the "saved" notice gone at the next keystroke.
 */
export function NameForm({
  name,
  label,
  autoComplete,
  hint,
  schema,
  mutation,
  saveLabel,
  savedNotice,
  failedMessage,
}: {
  name: string;
  label: string;
  autoComplete: string;
  hint?: string;
  /** The route's body schema: `{ name }`. */
  schema: z.ZodMiniType;
  mutation: UseMutationResult<{ name: string }, Error, string>;
  saveLabel: string;
  savedNotice: string;
  failedMessage: string;
}) {
  const { values, setValues, errors, showErrors, field } = useFormFields(FIELDS, { name });
  const value = values.name.trim();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!showErrors(schemaFieldErrors(schema, values, FIELDS))) return;
    mutation.mutate(value, {
      onSuccess: (stored) => setValues({ name: stored.name }),
    });
  };

  const fromServer = serverFieldErrors(mutation.error, FIELDS).name;
  const input = field('name', () => mutation.isSuccess && mutation.reset());
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-3">
      <TextField
        label={label}
        autoComplete={autoComplete}
        maxLength={120}
        hint={hint}
        {...input}
        error={errors.name ?? fromServer}
      />
      {mutation.isError && !fromServer && <Alert tone="error">{errorMessage(mutation.error, failedMessage)}</Alert>}
      {mutation.isSuccess && <Alert tone="success">{savedNotice}</Alert>}
      <Button
        type="submit"
        className="self-start"
        disabled={value === name}
        pending={mutation.isPending}
        pendingLabel="Saving..."
      >
        {saveLabel}
      </Button>
    </form>
  );
}
