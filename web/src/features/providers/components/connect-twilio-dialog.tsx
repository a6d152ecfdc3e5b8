import { TWILIO_ACCOUNT_SID, TWILIO_ACCOUNT_SID_FORMAT } from '@shared/constants';
import { useRef, useState } from 'react';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { Dialog, DialogBody, DialogClose, DialogFooter, DialogForm } from '@/components/dialog';
import { TextField } from '@/components/text-field';
import { errorMessage } from '@/lib/api-client';
import { type FieldErrors, focusFirstInvalid, serverFieldErrors } from '@/lib/form';
import { useConnectTwilio } from '../api/providers-api';

const FIELDS = ['accountSid', 'authToken'] as const;
type Field = (typeof FIELDS)[number];

export function validateCredentials(values: Record<Field, string>): FieldErrors<Field> {
  const errors: FieldErrors<Field> = {};
  const sid = values.accountSid.trim();
  if (!sid) errors.accountSid = 'Account SID is required';
  // The server's rule, checked here first so a typo needs no round trip.
  else if (!TWILIO_ACCOUNT_SID.test(sid)) errors.accountSid = TWILIO_ACCOUNT_SID_FORMAT;
  if (!values.authToken.trim()) errors.authToken = 'Auth token is required';
  return errors;
}

/** docs/product.md §2 Providers: the connect dialog asks for the account SID and auth token (§5: both required). */
export function ConnectTwilioDialog({
  open,
  onOpenChange,
  onConnected,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConnected?: () => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Connect Twilio"
      description="Enter the credentials of your Twilio account. You find both on the Twilio console's home page."
    >
      <ConnectForm
        onConnected={() => {
          onOpenChange(false);
          onConnected?.();
        }}
      />
    </Dialog>
  );
}

function ConnectForm({ onConnected }: { onConnected: () => void }) {
  const connect = useConnectTwilio(onConnected);
  const [values, setValues] = useState<Record<Field, string>>({ accountSid: '', authToken: '' });
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const refs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});

  const submit = () => {
    const found = validateCredentials(values);
    setErrors(found);
    if (Object.keys(found).length) return focusFirstInvalid(FIELDS, found, refs.current);
    connect.mutate(
      { accountSid: values.accountSid.trim(), authToken: values.authToken.trim() },
      {
        onError: (error) => {
          const fromServer = serverFieldErrors(error, FIELDS);
          setErrors(fromServer);
          focusFirstInvalid(FIELDS, fromServer, refs.current);
        },
      },
    );
  };

  const set = (field: Field) => (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [field]: e.target.value }));

  return (
    <DialogForm onSubmit={submit} aria-label="Connect Twilio">
      <DialogBody className="flex flex-col gap-4">
        {connect.isError && <Alert tone="error">{errorMessage(connect.error, 'Failed to connect Twilio')}</Alert>}
        <TextField
          ref={(el) => {
            refs.current.accountSid = el;
          }}
          label="Account SID"
          autoComplete="off"
          spellCheck={false}
          placeholder="ACxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
          value={values.accountSid}
          onChange={set('accountSid')}
          error={errors.accountSid}
          hint="Starts with AC, followed by 32 letters and digits."
        />
        <TextField
          ref={(el) => {
            refs.current.authToken = el;
          }}
          label="Auth token"
          type="password"
          autoComplete="off"
          value={values.authToken}
          onChange={set('authToken')}
          error={errors.authToken}
          hint="Stored encrypted; never shown again."
        />
      </DialogBody>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="secondary">Cancel</Button>
        </DialogClose>
        <Button type="submit" pending={connect.isPending} pendingLabel="Connecting...">
          Connect
        </Button>
      </DialogFooter>
    </DialogForm>
  );
}
