import { confirmsCompanyName } from '@shared/contract/company';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/button';
import { Card } from '@/components/card';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { TextField } from '@/components/text-field';
import { errorMessage } from '@/lib/api-client';
import { useDeleteCompany } from '../api/company-api';

/**
 * The owner's danger zone (docs/product.md: Deleting a company): deleting the company and all its
 * data, confirmed by typing its name. The button stays disabled until the name matches.
 */
export function DeleteCompany({ companyName }: { companyName: string }) {
  const deletion = useDeleteCompany();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const matches = confirmsCompanyName(typed, companyName);
  return (
    <Card className="mt-6 flex max-w-xl flex-col items-start gap-3 border-danger/40">
      <h2 className="text-base font-semibold text-fg">Danger zone</h2>
      <p className="text-sm text-muted">
        Deletes the company with every conversation, contact, call and team member, and disconnects its Twilio numbers. This
        cannot be undone.
      </p>
      <Button
        variant="danger"
        className="dark:text-bg"
        onClick={() => {
          deletion.reset();
          setTyped('');
          setOpen(true);
        }}
      >
        <Trash2 aria-hidden="true" className="size-4" />
        Delete company
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Delete ${companyName}?`}
        confirmLabel="Delete company"
        pendingLabel="Deleting..."
        pending={deletion.isPending}
        confirmDisabled={!matches}
        error={deletion.isError ? errorMessage(deletion.error, 'Failed to delete the company') : null}
        onConfirm={() => deletion.mutate(typed)}
        fields={
          <TextField
            label={`Type ${companyName} to confirm`}
            value={typed}
            autoComplete="off"
            spellCheck={false}
            // Kept as typed while the request is under way: what is deleted is what was confirmed.
            readOnly={deletion.isPending}
            onChange={(event) => setTyped(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && matches && !deletion.isPending) deletion.mutate(typed);
            }}
          />
        }
      >
        Everything of {companyName} is deleted: its conversations, contacts, calls, inboxes and team. Its Twilio numbers get back
        the settings they had before import. Everyone, you included, is signed out at once.
      </ConfirmDialog>
    </Card>
  );
}
