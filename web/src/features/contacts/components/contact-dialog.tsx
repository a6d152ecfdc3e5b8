import {
  CONTACT_NAME_MAX,
  CONTACT_NOTES_MAX,
  type Contact,
  createContact,
  INVALID_PHONE_NUMBER,
  updateContact,
} from '@shared/contract/contacts';
import { checkPhoneNumber } from '@shared/phone-numbers';
import { useRef, useState } from 'react';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { ContactActions } from '@/components/contact-actions';
import { Dialog, DialogBody, DialogClose, DialogFooter, DialogForm } from '@/components/dialog';
import { TextAreaField } from '@/components/text-area-field';
import { TextField } from '@/components/text-field';
import { errorMessage } from '@/lib/api-client';
import { type FieldErrors, focusFirstInvalid, schemaFieldErrors, serverFieldErrors } from '@/lib/form';
import { useCompanyCountry, usePhoneFormat } from '@/lib/phone-display';
import { useCreateContact, useUpdateContact } from '../api/contacts-api';
import { ContactTimeline } from './contact-timeline';

const FIELDS = ['name', 'phoneNumber', 'email', 'notes'] as const;
type Field = (typeof FIELDS)[number];

/** docs/product.md §2 Contacts: the New Contact modal, or the Edit modal of `contact` with its number read-only. */
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
  const country = useCompanyCountry();
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

  /** Every field's problem at once, by the rules the server applies (its contract, the company's country). */
  const validate = (): FieldErrors<Field> => {
    if (contact)
      return schemaFieldErrors(updateContact.body, { name: values.name, email: values.email, notes: values.notes }, FIELDS);
    const found = schemaFieldErrors(createContact.body, values, FIELDS);
    if (!found.phoneNumber && !checkPhoneNumber(values.phoneNumber, country).ok) found.phoneNumber = INVALID_PHONE_NUMBER;
    return found;
  };

  const submit = () => {
    if (mutation.isPending) return;
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length) return focusFirstInvalid(FIELDS, found, refs.current);
    const fields = { name: values.name.trim(), email: values.email.trim(), notes: values.notes.trim() };
    if (contact) update.mutate({ id: contact.id, ...fields }, { onSuccess: onDone, onError: failed });
    else create.mutate({ ...fields, phoneNumber: values.phoneNumber.trim() }, { onSuccess: onDone, onError: failed });
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
          <>
            <TextField
              label="Phone Number"
              readOnly
              value={formatPhone(contact.phoneNumber)}
              hint="Phone number cannot be changed"
            />
            <ContactActions phoneNumber={contact.phoneNumber} who={contact.name || formatPhone(contact.phoneNumber)} />
          </>
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
        {/* The contact's texts, notes, calls and voicemails, below what can be edited. */}
        {contact && <ContactTimeline contactId={contact.id} />}
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
