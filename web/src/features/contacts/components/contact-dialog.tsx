import { useRef, useState } from 'react';
import { CONTACT_NAME_MAX, CONTACT_NOTES_MAX, type Contact } from '../../../../../shared/contract/contacts';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Dialog, DialogBody, DialogClose, DialogFooter, DialogForm } from '../../../components/dialog';
import { TextAreaField } from '../../../components/text-area-field';
import { TextField } from '../../../components/text-field';
import { errorMessage } from '../../../lib/api-client';
import { type FieldErrors, focusFirstInvalid, serverFieldErrors } from '../../../lib/form';
import { usePhoneFormat } from '../../../lib/phone-display';
import { useCreateContact, useUpdateContact } from '../api/contacts-api';

const FIELDS = ['name', 'phoneNumber', 'email', 'notes'] as const;
type Field = (typeof FIELDS)[number];

/** SPEC §2 Contacts: the New Contact modal, or the Edit modal of `contact` with its number read-only. */
export function ContactDialog({
  contact,
  open,
  onOpenChange,
}: {
  contact?: Contact;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={contact ? 'Edit Contact' : 'New Contact'}>
      <ContactForm contact={contact} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

function ContactForm({ contact, onDone }: { contact?: Contact; onDone: () => void }) {
  const create = useCreateContact();
  const update = useUpdateContact();
  const mutation = contact ? update : create;
  const formatPhone = usePhoneFormat();
  const [values, setValues] = useState({
    name: contact?.name ?? '',
    phoneNumber: '',
    email: contact?.email ?? '',
    notes: contact?.notes ?? '',
  });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const refs = useRef<Partial<Record<Field, HTMLElement | null>>>({});
  const set = (field: Field) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));

  const failed = (error: unknown) => {
    const fromServer = serverFieldErrors(error, FIELDS);
    setErrors(fromServer);
    focusFirstInvalid(FIELDS, fromServer, refs.current);
  };

  const submit = () => {
    if (mutation.isPending) return;
    const fields = { name: values.name.trim(), email: values.email.trim(), notes: values.notes.trim() };
    if (contact) {
      update.mutate({ id: contact.id, ...fields }, { onSuccess: onDone, onError: failed });
      return;
    }
    const phoneNumber = values.phoneNumber.trim();
    // SPEC §5: the number is the one thing a new contact needs.
    if (!phoneNumber) {
      const found = { phoneNumber: 'Phone number is required' };
      setErrors(found);
      return focusFirstInvalid(FIELDS, found, refs.current);
    }
    create.mutate({ ...fields, phoneNumber }, { onSuccess: onDone, onError: failed });
  };

  return (
    <DialogForm onSubmit={submit} aria-label={contact ? 'Edit contact' : 'New contact'}>
      <DialogBody className="flex flex-col gap-4">
        {mutation.isError && Object.keys(serverFieldErrors(mutation.error, FIELDS)).length === 0 && (
          <Alert tone="error">
            {errorMessage(mutation.error, contact ? 'Failed to update contact' : 'Failed to create contact')}
          </Alert>
        )}
        <TextField
          ref={(el) => {
            refs.current.name = el;
          }}
          label="Name"
          maxLength={CONTACT_NAME_MAX}
          autoComplete="off"
          value={values.name}
          onChange={set('name')}
          error={errors.name}
        />
        {contact ? (
          <TextField
            label="Phone Number"
            readOnly
            value={formatPhone(contact.phoneNumber)}
            hint="Phone number cannot be changed"
          />
        ) : (
          <TextField
            ref={(el) => {
              refs.current.phoneNumber = el;
            }}
            label="Phone Number"
            type="tel"
            required
            aria-required="true"
            autoComplete="off"
            placeholder="(415) 555-0101"
            value={values.phoneNumber}
            onChange={set('phoneNumber')}
            error={errors.phoneNumber}
          />
        )}
        <TextField
          ref={(el) => {
            refs.current.email = el;
          }}
          label="Email"
          type="email"
          autoComplete="off"
          value={values.email}
          onChange={set('email')}
          error={errors.email}
        />
        <TextAreaField
          ref={(el) => {
            refs.current.notes = el;
          }}
          label="Notes"
          maxLength={CONTACT_NOTES_MAX}
          value={values.notes}
          onChange={set('notes')}
          error={errors.notes}
        />
      </DialogBody>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="secondary">Cancel</Button>
        </DialogClose>
        <Button type="submit" pending={mutation.isPending} pendingLabel={contact ? 'Saving...' : 'Creating...'}>
          {contact ? 'Save Contact' : 'Create Contact'}
        </Button>
      </DialogFooter>
    </DialogForm>
  );
}
