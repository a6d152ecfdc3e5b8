import { connectTwilio } from '@shared/contract/settings';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { Dialog, DialogBody, DialogClose, DialogFooter, DialogForm } from '@/components/dialog';
import { TextField } from '@/components/text-field';
import { useFormFields } from '@/hooks/use-form-fields';
import { errorMessage } from '@/lib/api-client';
import { schemaFieldErrors, serverFieldErrors } from '@/lib/form';
import { useConnectTwilio } from '../api/providers-api';

const FIELDS = ['accountSid', 'authToken'] as const;

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
  const { values, showErrors, field } = useFormFields(FIELDS, { accountSid: '', authToken: '' });

  const submit = () => {
    // The route's own schema, so a typo in the SID needs no round trip (docs/product.md §5).
    if (!showErrors(schemaFieldErrors(connectTwilio.body, values, FIELDS))) return;
    connect.mutate(
      { accountSid: values.accountSid.trim(), authToken: values.authToken.trim() },
      { onError: (error) => showErrors(serverFieldErrors(error, FIELDS)) },
    );
  };

  return (
    <DialogForm onSubmit={submit} aria-label="Connect Twilio">
      <DialogBody className="flex flex-col gap-4">
        {connect.isError && <Alert tone="error">{errorMessage(connect.error, 'Failed to connect Twilio')}</Alert>}
        <TextField
          label="Account SID"
          autoComplete="off"
          spellCheck={false}
          placeholder="ACxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
          hint="Starts with AC, followed by 32 letters and digits."
          {...field('accountSid')}
        />
        <TextField
          label="Auth token"
          type="password"
          autoComplete="off"
          hint="Stored encrypted; never shown again."
          {...field('authToken')}
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
