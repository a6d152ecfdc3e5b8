import { RETENTION_DAYS, type Retention } from '@shared/contract/company';
import { Alert } from '@/components/alert';
import { Card } from '@/components/card';
import { ManagersOnlyNote } from '@/components/managers-only-note';
import { SelectField } from '@/components/select-field';
import { errorMessage } from '@/lib/api-client';
import { useRetention, useSaveRetention } from '../api/company-api';

const OPTIONS = [
  { value: 'keep', label: 'Keep messages and calls' },
  ...RETENTION_DAYS.map((days) => ({ value: String(days), label: `Delete after ${days} days` })),
];

/** How long messages and calls are kept (docs/product.md: Message retention); owners and admins change it. */
export function MessageRetention({ canChange }: { canChange: boolean }) {
  const retention = useRetention();
  const save = useSaveRetention();
  const days = retention.data?.messageRetentionDays;
  return (
    <Card className="mt-6 flex max-w-xl flex-col gap-3">
      <h2 className="text-base font-semibold text-fg">Message retention</h2>
      {/* Agents read the setting; the disabled field alone would not say why. */}
      {!canChange && <ManagersOnlyNote />}
      <SelectField
        label="Keep messages and calls"
        placeholder="Loading..."
        options={OPTIONS}
        value={retention.data ? (days === null ? 'keep' : String(days)) : ''}
        disabled={!canChange || !retention.data || save.isPending}
        hint="Applies to messages and calls written from now on; earlier ones are kept."
        onChange={(event) =>
          save.mutate({
            messageRetentionDays:
              event.target.value === 'keep' ? null : (Number(event.target.value) as Retention['messageRetentionDays']),
          })
        }
      />
      {retention.isError && <Alert tone="error">{errorMessage(retention.error, 'Failed to load message retention')}</Alert>}
      {save.isError && <Alert tone="error">{errorMessage(save.error, 'Failed to save message retention')}</Alert>}
      {/* Saving follows the choice at once, with no button: this line is what says it was kept. */}
      {save.isSuccess && <Alert tone="success">Message retention saved.</Alert>}
    </Card>
  );
}
