import type { Provider, ProviderNumber } from '@shared/contract/settings';
import { useQueryClient } from '@tanstack/react-query';
import { Ban, MessageSquare, Phone, PhoneOff, RotateCcw, TriangleAlert } from 'lucide-react';
import { useId, useState } from 'react';
import { Alert } from '@/components/alert';
import { Badge } from '@/components/badge';
import { Button } from '@/components/button';
import { Dialog, DialogBody, DialogClose, DialogFooter, DialogForm } from '@/components/dialog';
import { EmptyState } from '@/components/empty-state';
import { Spinner } from '@/components/spinner';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { usePhoneFormat } from '@/lib/phone-display';
import { plural } from '@/lib/plural';
import { settingsKeys } from '@/lib/settings-queries';
import { type SkippedNumber, useAvailableNumbers, useImportChannels } from '../api/providers-api';
import { type CurrentUse, currentUse } from './current-use';
import {
  importButtonLabel,
  importPayload,
  isSelected,
  type Selection,
  selectable,
  toggleCapability,
  toggleNumber,
} from './import-selection';
import { providerName } from './provider-name';

export interface ImportNumbersDialogProps {
  provider: Pick<Provider, 'id' | 'type'>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called after a successful import, with how many channels were created and the numbers left out. */
  onImported?: (count: number, skipped: SkippedNumber[]) => void;
}

/** docs/product.md §2 Import Phone Numbers dialog. */
export function ImportNumbersDialog({ provider, open, onOpenChange, onImported }: ImportNumbersDialogProps) {
  const numbers = useAvailableNumbers(provider.id, open);
  const list = numbers.data ?? [];
  const imported = list.filter((n) => n.imported).length;
  const available = list.filter(selectable).length;
  const [helpOpen, setHelpOpen] = useState(false);

  return (
    <>
      <Dialog
        open={open}
        onOpenChange={onOpenChange}
        size="lg"
        title="Import Phone Numbers"
        description={
          numbers.isSuccess
            ? `${plural(available, 'number')} available · ${imported} already imported`
            : `Choose numbers from your ${providerName(provider.type)} account to use as channels.`
        }
      >
        <ImportNumbersForm
          providerId={provider.id}
          providerLabel={providerName(provider.type)}
          numbers={numbers}
          onHelp={() => setHelpOpen(true)}
          onImported={(count, skipped) => {
            onOpenChange(false);
            onImported?.(count, skipped);
          }}
        />
      </Dialog>
      <Dialog open={helpOpen} onOpenChange={setHelpOpen} size="sm" title="Numbers used elsewhere">
        <DialogBody>
          <p className="text-sm text-fg">Help Modal Content Coming Soon</p>
        </DialogBody>
        <DialogFooter>
          <DialogClose asChild>
            <Button>Got it</Button>
          </DialogClose>
        </DialogFooter>
      </Dialog>
    </>
  );
}

function ImportNumbersForm({
  providerId,
  providerLabel,
  numbers,
  onHelp,
  onImported,
}: {
  providerId: string;
  providerLabel: string;
  numbers: ReturnType<typeof useAvailableNumbers>;
  onHelp: () => void;
  onImported: (count: number, skipped: SkippedNumber[]) => void;
}) {
  const queryClient = useQueryClient();
  const importing = useImportChannels(providerId);
  const [selection, setSelection] = useState<Selection>(new Map());
  const list = numbers.data ?? [];
  const payload = importPayload(list, selection);

  const submit = () => {
    if (payload.length === 0 || importing.isPending) return;
    importing.mutate(payload, {
      onSuccess: (result) => {
        void queryClient.invalidateQueries({ queryKey: settingsKeys.availableNumbers(providerId) });
        onImported(result.importedCount, result.skipped);
      },
    });
  };

  return (
    <DialogForm onSubmit={submit} aria-label="Import phone numbers">
      <DialogBody>
        {importing.isError && (
          <div className="mb-4">
            <Alert tone="error">{errorMessage(importing.error, 'Failed to import numbers')}</Alert>
          </div>
        )}
        {numbers.isPending ? (
          <div role="status" className="flex flex-col items-center gap-3 py-12 text-center text-sm text-muted">
            <Spinner className="size-6 text-primary" />
            Fetching phone numbers from your {providerLabel} account...
          </div>
        ) : numbers.isError ? (
          <div className="flex flex-col items-start gap-3">
            <Alert tone="error">{errorMessage(numbers.error, 'Failed to fetch numbers')}</Alert>
            <Button variant="secondary" pending={numbers.isFetching} pendingLabel="Retrying..." onClick={() => numbers.refetch()}>
              Try again
            </Button>
          </div>
        ) : list.length === 0 ? (
          <EmptyState icon={PhoneOff} title="No phone numbers found">
            Your {providerLabel} account has no phone numbers yet. Buy one in your {providerLabel} console, then come back here to
            import it.
          </EmptyState>
        ) : (
          <ul className="flex flex-col gap-2" aria-label="Phone numbers">
            {list.map((number) => (
              <NumberRow
                key={number.sid}
                number={number}
                chosen={selection.get(number.sid)}
                disabled={importing.isPending}
                onHelp={onHelp}
                onToggle={(on) => setSelection((s) => toggleNumber(s, number, on))}
                onCapability={(capability, on) => setSelection((s) => toggleCapability(s, number, capability, on))}
              />
            ))}
          </ul>
        )}
      </DialogBody>
      <DialogFooter className="justify-between">
        <p className="text-sm font-medium text-muted" aria-live="polite">
          {payload.length} selected
        </p>
        <div className="flex flex-wrap gap-3">
          <DialogClose asChild>
            <Button variant="secondary">Cancel</Button>
          </DialogClose>
          <Button type="submit" disabled={payload.length === 0} pending={importing.isPending} pendingLabel="Importing...">
            {importButtonLabel(payload.length)}
          </Button>
        </div>
      </DialogFooter>
    </DialogForm>
  );
}

function NumberRow({
  number,
  chosen,
  disabled,
  onHelp,
  onToggle,
  onCapability,
}: {
  number: ProviderNumber;
  chosen: { voice: boolean; sms: boolean } | undefined;
  disabled: boolean;
  onHelp: () => void;
  onToggle: (on: boolean) => void;
  onCapability: (capability: 'voice' | 'sms', on: boolean) => void;
}) {
  const id = useId();
  const formatPhone = usePhoneFormat();
  const { capabilities } = number;
  const supported = [capabilities.voice && 'Voice', capabilities.sms && 'SMS', capabilities.mms && 'MMS'].filter(Boolean);
  const display = formatPhone(number.phoneNumber);
  const open = selectable(number);
  const selected = isSelected(chosen);
  const uses = open ? currentUse(number) : [];
  const usedFor = (capability: CurrentUse['capability']) => uses.find((u) => u.capability === capability)?.target;
  const describedBy = [
    number.imported && `${id}-imported`,
    number.inUseElsewhere && `${id}-elsewhere`,
    open && number.previouslyImported && `${id}-previous`,
    uses.length > 0 && `${id}-current`,
    `${id}-details`,
    chosen && !selected && `${id}-none`,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <li
      className={cn(
        'rounded-lg border p-3',
        !open ? 'border-border bg-surface-muted' : selected ? 'border-primary ring-1 ring-primary' : 'border-border',
      )}
    >
      <div className="flex items-start gap-3">
        <input
          id={id}
          type="checkbox"
          checked={Boolean(chosen)}
          disabled={!open || disabled}
          onChange={(e) => onToggle(e.target.checked)}
          aria-describedby={describedBy}
          className="mt-1 size-4 shrink-0 accent-primary disabled:cursor-not-allowed disabled:opacity-40"
        />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <label htmlFor={id} className={cn('font-semibold tabular-nums', open ? 'cursor-pointer text-fg' : 'text-muted')}>
              {display}
            </label>
            {number.imported && (
              <span id={`${id}-imported`}>
                <Badge>Already imported</Badge>
              </span>
            )}
          </div>
          <p id={`${id}-details`} className="mt-0.5 text-sm text-muted">
            <span className="wrap-anywhere">{number.friendlyName}</span>
            {supported.length > 0 && <span className="sr-only">. Supports {supported.join(', ')}.</span>}
          </p>
          {number.inUseElsewhere && !number.imported && (
            <p id={`${id}-elsewhere`} className="mt-2 flex items-start gap-1.5 text-xs text-muted">
              <Ban aria-hidden="true" className="mt-px size-3.5 shrink-0" />
              <span>Already a channel of another company on Switchboard, so it cannot be imported here.</span>
            </p>
          )}
          {open && number.previouslyImported && (
            <p id={`${id}-previous`} className="mt-2 flex items-start gap-1.5 text-xs text-fg">
              <RotateCcw aria-hidden="true" className="mt-px size-3.5 shrink-0 text-muted" />
              <span>Previously imported — will be reactivated, with its routing.</span>
            </p>
          )}
          {open && uses.length > 0 && <CurrentUseWarning id={`${id}-current`} uses={uses} onHelp={onHelp} />}
          {open && uses.length === 0 && (
            <p className="mt-2 flex items-start gap-1.5 text-xs text-warning-fg">
              <TriangleAlert aria-hidden="true" className="mt-px size-3.5 shrink-0" />
              <span>
                Using this number elsewhere at the same time may stop it working. <LearnMore onHelp={onHelp} />
              </span>
            </p>
          )}
        </div>
        <ul aria-hidden="true" className="hidden shrink-0 gap-1 sm:flex">
          {supported.map((label) => (
            <li key={String(label)}>
              <Badge>{label}</Badge>
            </li>
          ))}
        </ul>
      </div>
      {chosen && (capabilities.voice || capabilities.sms) && (
        <fieldset className="mt-3 border-t border-border pt-3 sm:ml-7">
          <legend className="sr-only">Capabilities to use for {display}</legend>
          <div className="flex flex-col gap-2">
            {capabilities.voice && (
              <Capability
                label="Voice"
                icon={Phone}
                checked={chosen.voice}
                disabled={disabled}
                onChange={(on) => onCapability('voice', on)}
                note={`Incoming calls will be pointed at a Switchboard webhook${insteadOf(usedFor('voice'))}.`}
              />
            )}
            {capabilities.sms && (
              <Capability
                label={capabilities.mms ? 'SMS & MMS' : 'SMS'}
                icon={MessageSquare}
                checked={chosen.sms}
                disabled={disabled}
                onChange={(on) => onCapability('sms', on)}
                note={`Incoming SMS will be pointed at a Switchboard webhook${insteadOf(usedFor('sms'))}.`}
              />
            )}
          </div>
          {!selected && (
            <p id={`${id}-none`} className="mt-2 text-xs font-medium text-warning-fg">
              Not selected: tick Voice or SMS to import this number.
            </p>
          )}
        </fieldset>
      )}
    </li>
  );
}

const insteadOf = (target: string | undefined) => (target ? ` instead of ${target}` : '');

function LearnMore({ onHelp }: { onHelp: () => void }) {
  return (
    <button type="button" onClick={onHelp} className="font-semibold underline underline-offset-2 hover:no-underline">
      Learn more
    </button>
  );
}

const USE_LABELS = { voice: 'Calls go to', sms: 'Texts go to' } as const;

/** The warning of a number already pointed somewhere: where each capability goes now, and what import does to it. */
function CurrentUseWarning({ id, uses, onHelp }: { id: string; uses: CurrentUse[]; onHelp: () => void }) {
  return (
    <div className="mt-2 flex items-start gap-1.5 text-xs text-warning-fg">
      <TriangleAlert aria-hidden="true" className="mt-px size-3.5 shrink-0" />
      <div id={id}>
        <p className="font-semibold">Already pointed at another application.</p>
        <ul className="mt-0.5">
          {uses.map((use) => (
            <li key={use.capability} className="wrap-anywhere">
              {USE_LABELS[use.capability]} {use.target}.
            </li>
          ))}
        </ul>
        <p className="mt-0.5">
          Importing takes it over: what you choose below comes to Switchboard instead, and stops reaching that application.
          Disconnecting later points it back. <LearnMore onHelp={onHelp} />
        </p>
      </div>
    </div>
  );
}

function Capability({
  label,
  icon: Icon,
  checked,
  disabled,
  onChange,
  note,
}: {
  label: string;
  icon: typeof Phone;
  checked: boolean;
  disabled: boolean;
  onChange: (on: boolean) => void;
  note: string;
}) {
  const id = useId();
  return (
    <div>
      <div className="flex items-center gap-2">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          disabled={disabled}
          onChange={(e) => onChange(e.target.checked)}
          aria-describedby={checked ? `${id}-note` : undefined}
          className="size-4 shrink-0 accent-primary"
        />
        <label htmlFor={id} className="flex cursor-pointer items-center gap-1.5 text-sm font-medium text-fg">
          <Icon aria-hidden="true" className="size-3.5 text-muted" />
          {label}
        </label>
      </div>
      {checked && (
        <p id={`${id}-note`} className="mt-0.5 ml-6 text-xs text-muted">
          {note}
        </p>
      )}
    </div>
  );
}
