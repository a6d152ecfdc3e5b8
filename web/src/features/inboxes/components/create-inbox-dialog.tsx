import { useRef, useState } from 'react';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { Dialog, DialogBody, DialogClose, DialogFooter, DialogForm } from '@/components/dialog';
import { TextAreaField } from '@/components/text-area-field';
import { TextField } from '@/components/text-field';
import { errorMessage } from '@/lib/api-client';
import { type FieldErrors, serverFieldErrors } from '@/lib/form';
import { useCreateInbox } from '../api/inboxes-api';

const FIELDS = ['name', 'description'] as const;
type Field = (typeof FIELDS)[number];

/** docs/product.md §2 Create Inbox dialog: Inbox Name (required) and Description (optional, multi-line). */
export function CreateInboxDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Create Inbox"
      description="A shared inbox for a team: route phone numbers to it and choose who answers."
    >
      <CreateInboxForm onCreated={() => onOpenChange(false)} />
    </Dialog>
  );
}

function CreateInboxForm({ onCreated }: { onCreated: () => void }) {
  const create = useCreateInbox();
  const [values, setValues] = useState({ name: '', description: '' });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const nameRef = useRef<HTMLInputElement>(null);
  const descriptionRef = useRef<HTMLTextAreaElement>(null);

  const focusFirst = (found: FieldErrors<Field>) => {
    if (found.name) nameRef.current?.focus();
    else if (found.description) descriptionRef.current?.focus();
  };

  const submit = () => {
    if (create.isPending) return;
    const name = values.name.trim();
    const found: FieldErrors<Field> = name ? {} : { name: 'Inbox name is required' };
    setErrors(found);
    if (found.name) return focusFirst(found);
    create.mutate(
      { name, description: values.description.trim() },
      {
        onSuccess: onCreated,
        onError: (error) => {
          const fromServer = serverFieldErrors(error, FIELDS);
          setErrors(fromServer);
          focusFirst(fromServer);
        },
      },
    );
  };

  return (
    <DialogForm onSubmit={submit} aria-label="Create inbox">
      <DialogBody className="flex flex-col gap-4">
        {create.isError && Object.keys(serverFieldErrors(create.error, FIELDS)).length === 0 && (
          <Alert tone="error">{errorMessage(create.error, 'Failed to create inbox')}</Alert>
        )}
        <TextField
          ref={nameRef}
          label="Inbox Name"
          required
          aria-required="true"
          maxLength={100}
          placeholder="e.g. Support"
          value={values.name}
          onChange={(e) => setValues((v) => ({ ...v, name: e.target.value }))}
          error={errors.name}
        />
        <TextAreaField
          ref={descriptionRef}
          label="Description"
          hint="Optional. What this inbox is for."
          maxLength={500}
          value={values.description}
          onChange={(e) => setValues((v) => ({ ...v, description: e.target.value }))}
          error={errors.description}
        />
      </DialogBody>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="secondary">Cancel</Button>
        </DialogClose>
        <Button type="submit" pending={create.isPending} pendingLabel="Creating...">
          Create Inbox
        </Button>
      </DialogFooter>
    </DialogForm>
  );
}
