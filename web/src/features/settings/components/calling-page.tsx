import {
  COUNTRIES,
  DEFAULT_RECORDING_DISCLOSURE,
  DEFAULT_VOICEMAIL_GREETING,
  MAX_OUTBOUND_CALLS_PER_MINUTE,
  MAX_RECORDING_DISCLOSURE_LENGTH,
  MAX_TEXT_SEGMENTS_PER_HOUR,
  MAX_VOICEMAIL_GREETING_LENGTH,
  MIN_TEXT_SEGMENTS_PER_HOUR,
  TEXT_SEGMENTS_PER_MEMBER_HOUR,
  TEXT_SEGMENTS_PER_MEMBER_MINUTE,
} from '@shared/constants';
import type { CallingSettings } from '@shared/contract/voice';
import { Lock, ShieldAlert } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { Card } from '@/components/card';
import { ManagersOnlyNote } from '@/components/managers-only-note';
import { PageHeader } from '@/components/page-header';
import { Skeleton } from '@/components/skeleton';
import { TextAreaField } from '@/components/text-area-field';
import { TextField } from '@/components/text-field';
import { useCanManage } from '@/hooks/use-can-manage';
import { useSession } from '@/hooks/use-session';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { useCallingSettings, useSaveCallingSettings } from '../api/calling-api';

/**
 * Settings → Calling (toll fraud): the countries agents may call, the company's outbound
 * calls a minute and its text segments an hour (docs/product.md: Sending limits). Owners and admins
 * choose the countries; only the owner changes the rates; agents read them.
 */
export function CallingPage() {
  const calling = useCallingSettings();
  const [saved, setSaved] = useState(false);
  return (
    <>
      <PageHeader
        title="Calling"
        description="Where your team can call and how often. Calls anywhere else are refused before they ring."
      />
      {!useCanManage() && <ManagersOnlyNote />}
      <p className="mb-4 flex items-start gap-2 text-sm text-muted">
        <ShieldAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        Premium-rate, shared-cost, personal and satellite numbers are never called, whatever the countries.
      </p>
      {calling.isPending ? (
        <Card className="flex max-w-3xl flex-col gap-3" aria-busy="true">
          <span className="sr-only">Loading calling settings…</span>
          <Skeleton className="h-5 w-48" />
          <Skeleton className="h-40 w-full" />
          <Skeleton className="h-10 w-32" />
        </Card>
      ) : calling.data ? (
        // A fresh form whenever the stored settings change (after a save), so it always starts from them.
        <CallingForm key={JSON.stringify(calling.data)} stored={calling.data} saved={saved} onSaved={setSaved} />
      ) : (
        <Alert tone="error" title="Calling settings could not be loaded">
          {errorMessage(calling.error, 'Please reload the page to try again.')}
        </Alert>
      )}
    </>
  );
}

function CallingForm({ stored, saved, onSaved }: { stored: CallingSettings; saved: boolean; onSaved: (saved: boolean) => void }) {
  const canManage = useCanManage();
  const isOwner = useSession()?.user.role === 'OWNER';
  const save = useSaveCallingSettings();
  const [countries, setCountries] = useState(() => new Set(stored.allowedCountries));
  const [rate, setRate] = useState(String(stored.outboundCallsPerMinute));
  const [segments, setSegments] = useState(String(stored.textSegmentsPerHour));
  const [greeting, setGreeting] = useState(stored.voicemailGreeting ?? '');
  const [disclosure, setDisclosure] = useState(stored.recordingDisclosure ?? '');
  const [recordPrivateLines, setRecordPrivateLines] = useState(stored.recordPrivateLines);
  const countriesHintId = useId();
  const rateNumber = Number(rate);
  const segmentsNumber = Number(segments);
  const rateError = wholeNumberError(rate, 1, MAX_OUTBOUND_CALLS_PER_MINUTE);
  const segmentsError = wholeNumberError(segments, MIN_TEXT_SEGMENTS_PER_HOUR, MAX_TEXT_SEGMENTS_PER_HOUR);
  const countriesError = countries.size === 0 ? 'Choose at least one country' : undefined;
  const greetingError =
    greeting.length > MAX_VOICEMAIL_GREETING_LENGTH
      ? `Voicemail greeting can be at most ${MAX_VOICEMAIL_GREETING_LENGTH} characters`
      : undefined;
  // Blank is the default greeting, as the server stores it (null).
  const greetingValue = greeting.trim() === '' ? null : greeting.trim();
  const greetingChanged = greetingValue !== (stored.voicemailGreeting?.trim() || null);
  const disclosureError =
    disclosure.length > MAX_RECORDING_DISCLOSURE_LENGTH
      ? `Recording disclosure can be at most ${MAX_RECORDING_DISCLOSURE_LENGTH} characters`
      : undefined;
  const disclosureValue = disclosure.trim() === '' ? null : disclosure.trim();
  const disclosureChanged = disclosureValue !== (stored.recordingDisclosure?.trim() || null);
  const privateLinesChanged = recordPrivateLines !== stored.recordPrivateLines;
  const changed =
    greetingChanged ||
    disclosureChanged ||
    privateLinesChanged ||
    rateNumber !== stored.outboundCallsPerMinute ||
    segmentsNumber !== stored.textSegmentsPerHour ||
    countries.size !== stored.allowedCountries.length ||
    stored.allowedCountries.some((code) => !countries.has(code));

  const edit = (change: () => void) => {
    onSaved(false);
    save.reset();
    change();
  };
  const toggle = (code: string, on: boolean) =>
    edit(() =>
      setCountries((before) => {
        const next = new Set(before);
        if (on) next.add(code);
        else next.delete(code);
        return next;
      }),
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!canManage || rateError || segmentsError || countriesError || greetingError || disclosureError || !changed) return;
    save.mutate(
      {
        allowedCountries: COUNTRIES.filter((c) => countries.has(c.code)).map((c) => c.code),
        outboundCallsPerMinute: rateNumber,
        textSegmentsPerHour: segmentsNumber,
        // Sent only when changed: absent leaves it as stored.
        ...(greetingChanged ? { voicemailGreeting: greetingValue } : {}),
        ...(disclosureChanged ? { recordingDisclosure: disclosureValue } : {}),
        ...(privateLinesChanged ? { recordPrivateLines } : {}),
      },
      { onSuccess: () => onSaved(true) },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="flex max-w-3xl flex-col gap-6">
      <Card>
        <fieldset aria-describedby={countriesHintId} disabled={!canManage || save.isPending}>
          <legend className="text-base font-semibold text-fg">Allowed countries</legend>
          <div className="mt-1 flex flex-wrap items-center justify-between gap-3">
            <p id={countriesHintId} className={cn('text-sm', countriesError ? 'font-medium text-danger' : 'text-muted')}>
              {countriesError ?? `${countries.size} of ${COUNTRIES.length} countries can be called.`}
            </p>
            {canManage && (
              <div className="flex gap-2">
                <Button variant="secondary" onClick={() => edit(() => setCountries(new Set(COUNTRIES.map((c) => c.code))))}>
                  Select all
                </Button>
                <Button variant="secondary" onClick={() => edit(() => setCountries(new Set()))}>
                  Clear
                </Button>
              </div>
            )}
          </div>
          <ul className="mt-4 grid gap-1 sm:grid-cols-2 lg:grid-cols-3">
            {COUNTRIES.map((country) => (
              <li key={country.code}>
                <label
                  className={cn(
                    'flex min-h-10 items-center gap-3 rounded-lg px-2 py-1.5 text-sm',
                    canManage ? 'cursor-pointer hover:bg-surface-muted' : 'text-muted',
                  )}
                >
                  <input
                    type="checkbox"
                    checked={countries.has(country.code)}
                    onChange={(e) => toggle(country.code, e.target.checked)}
                    className="size-4 shrink-0 accent-primary disabled:cursor-not-allowed"
                  />
                  <span className="min-w-0 flex-1 truncate text-fg">{country.name}</span>
                  <span className="text-xs text-muted tabular-nums">{country.dialCode}</span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      </Card>
      <OwnerLimitCard
        title="Outbound call rate"
        label="Calls a minute, for the whole company"
        min={1}
        max={MAX_OUTBOUND_CALLS_PER_MINUTE}
        value={rate}
        isOwner={isOwner}
        canManage={canManage}
        pending={save.isPending}
        error={rateError}
        hint="Calls past this in any minute are refused with a short message."
        ownerOnly="Only the owner can change the call rate."
        onChange={(value) => edit(() => setRate(value))}
      />
      <OwnerLimitCard
        title="Texting limit"
        label="Text segments an hour, for the whole company"
        min={MIN_TEXT_SEGMENTS_PER_HOUR}
        max={MAX_TEXT_SEGMENTS_PER_HOUR}
        value={segments}
        isOwner={isOwner}
        canManage={canManage}
        pending={save.isPending}
        error={segmentsError}
        hint={`A text of up to 160 characters is one segment, each picture one more. Each member can also send ${TEXT_SEGMENTS_PER_MEMBER_MINUTE} a minute and ${TEXT_SEGMENTS_PER_MEMBER_HOUR} an hour.`}
        ownerOnly="Only the owner can change the texting limit."
        onChange={(value) => edit(() => setSegments(value))}
      />
      <Card className="flex flex-col gap-3">
        <h2 className="text-base font-semibold text-fg">Voicemail</h2>
        <TextAreaField
          label="Voicemail greeting"
          rows={3}
          maxLength={MAX_VOICEMAIL_GREETING_LENGTH}
          placeholder={DEFAULT_VOICEMAIL_GREETING}
          value={greeting}
          readOnly={!canManage}
          disabled={save.isPending}
          error={greetingError}
          hint="Callers hear this when nobody answers. Leave empty for the default."
          onChange={(e) => edit(() => setGreeting(e.target.value))}
        />
      </Card>
      <Card className="flex flex-col gap-3">
        <h2 className="text-base font-semibold text-fg">Call recording</h2>
        <TextAreaField
          label="Recording disclosure"
          rows={2}
          maxLength={MAX_RECORDING_DISCLOSURE_LENGTH}
          placeholder={DEFAULT_RECORDING_DISCLOSURE}
          value={disclosure}
          readOnly={!canManage}
          disabled={save.isPending}
          error={disclosureError}
          hint="Callers hear this before a recorded call rings anyone. Leave empty for the default. Each inbox chooses whether its calls are recorded."
          onChange={(e) => edit(() => setDisclosure(e.target.value))}
        />
        <label className={cn('flex min-h-10 items-center gap-3 text-sm text-fg', canManage && 'cursor-pointer')}>
          <input
            type="checkbox"
            checked={recordPrivateLines}
            disabled={!canManage || save.isPending}
            onChange={(e) => {
              const on = e.target.checked;
              edit(() => setRecordPrivateLines(on));
            }}
            className="size-4 shrink-0 accent-primary disabled:cursor-not-allowed"
          />
          Record calls to private lines (numbers routed to one member)
        </label>
      </Card>
      {save.isError && (
        <Alert tone="error" title="Calling settings were not saved">
          {errorMessage(save.error, 'Please try again.')}
        </Alert>
      )}
      {saved && <Alert tone="success">Calling settings saved.</Alert>}
      {canManage && (
        <div className="flex justify-end">
          <Button
            type="submit"
            pending={save.isPending}
            pendingLabel="Saving…"
            disabled={
              !changed ||
              Boolean(countriesError) ||
              Boolean(rateError) ||
              Boolean(segmentsError) ||
              Boolean(greetingError) ||
              Boolean(disclosureError)
            }
          >
            Save changes
          </Button>
        </div>
      )}
    </form>
  );
}

/** What the form says of a typed number outside [min, max] or not whole; undefined when it fits. */
function wholeNumberError(typed: string, min: number, max: number): string | undefined {
  const n = Number(typed);
  if (typed.trim() !== '' && Number.isInteger(n) && n >= min && n <= max) return undefined;
  return `Enter a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}`;
}

/** A company-wide number only the owner changes (docs/product.md §2.15): read-only for admins, who are told why. */
function OwnerLimitCard({
  title,
  label,
  min,
  max,
  value,
  isOwner,
  canManage,
  pending,
  error,
  hint,
  ownerOnly,
  onChange,
}: {
  title: string;
  label: string;
  min: number;
  max: number;
  value: string;
  isOwner: boolean;
  canManage: boolean;
  pending: boolean;
  error: string | undefined;
  hint: string;
  ownerOnly: string;
  onChange: (value: string) => void;
}) {
  return (
    <Card className="flex flex-col gap-3">
      <h2 className="text-base font-semibold text-fg">{title}</h2>
      <TextField
        label={label}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        step={1}
        className="max-w-xs"
        value={value}
        readOnly={!isOwner}
        disabled={pending}
        error={isOwner ? error : undefined}
        hint={hint}
        onChange={(e) => onChange(e.target.value)}
      />
      {canManage && !isOwner && (
        <p className="flex items-center gap-2 text-sm text-muted">
          <Lock aria-hidden="true" className="size-4 shrink-0" />
          {ownerOnly}
        </p>
      )}
    </Card>
  );
}
