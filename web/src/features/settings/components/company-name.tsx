import { DEFAULT_COMPANY_NAME } from '@shared/constants';
import { type FormEvent, useRef, useState } from 'react';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { TextField } from '@/components/text-field';
import { errorMessage } from '@/lib/api-client';
import { useRenameCompany } from '../api/company-api';
import { ReadOnlyField } from './read-only-field';

/** Settings → Company: the owner renames the company; everyone else reads the name (docs/product.md: Account self-service). */
export function CompanyName({ name, canRename }: { name: string; canRename: boolean }) {
  if (!canRename) {
    return (
      <>
        <ReadOnlyField label="Company name" value={name || DEFAULT_COMPANY_NAME} />
        <p className="text-sm text-muted">Only the owner can change the company name.</p>
      </>
    );
  }
  return <RenameForm name={name} />;
}

function RenameForm({ name }: { name: string }) {
  const rename = useRenameCompany();
  const [value, setValue] = useState(name);
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!value.trim()) {
      setError('Company name is required');
      input.current?.focus();
      return;
    }
    setError(undefined);
    rename.mutate(value.trim(), { onSuccess: (company) => setValue(company.name) });
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-3">
      <TextField
        ref={input}
        label="Company name"
        autoComplete="organization"
        maxLength={120}
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          if (rename.isSuccess) rename.reset();
        }}
        error={error}
        hint="Your team and the people you invite see this name."
      />
      {rename.isError && <Alert tone="error">{errorMessage(rename.error, 'Failed to save the company name')}</Alert>}
      {rename.isSuccess && <Alert tone="success">The company name was saved.</Alert>}
      <Button
        type="submit"
        className="self-start"
        disabled={value.trim() === name}
        pending={rename.isPending}
        pendingLabel="Saving..."
      >
        Save company name
      </Button>
    </form>
  );
}
