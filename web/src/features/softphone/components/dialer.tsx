import { COUNTRIES } from '@shared/constants';
import { type CountryCode, checkPhoneNumber, formatAsTyped, phoneNumberProblem } from '@shared/phone-numbers';
import { Phone } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { Alert } from '@/components/alert';
import { SelectField } from '@/components/select-field';
import { TextField } from '@/components/text-field';
import { cn } from '@/lib/cn';
import { useCompanyCountry, usePhoneFormat } from '@/lib/phone-display';
import { useCallerIds } from '../api/softphone-api';
import { CallButton, PANEL } from './call-buttons';
import { Keypad } from './keypad';

export const NO_CALLER_IDS = 'No phone numbers available. You must be assigned to an inbox with a phone number to make calls.';

/** The digits (and a leading +) of what was typed: formatting characters come from AsYouType alone. */
const digitsOf = (text: string) => text.replace(/(?!^\+)[^\d]/g, '');

/**
 * docs/product.md §2 dialer: country (default the company's), the number formatted as typed for it, the caller
 * ID, a keypad and Call. Sends the number in E.164. Escape closes it.
 */
export function Dialer(props: {
  id: string;
  /** Places the call; resolves to an error message, or null once the call is under way. */
  onDial: (to: string, from: string) => Promise<string | null>;
  onClose: () => void;
  /** A number to call (E.164), from a contact's Call action: filled in, the agent presses Call. */
  initialNumber?: string;
}) {
  const companyCountry = useCompanyCountry();
  const format = usePhoneFormat();
  const [chosenCountry, setChosenCountry] = useState<CountryCode | null>(null);
  const country = chosenCountry ?? (COUNTRIES.some((c) => c.code === companyCountry) ? companyCountry : 'US');
  const [number, setNumber] = useState(() => (props.initialNumber ? format(props.initialNumber) : ''));
  // Errors show once the agent has typed and left the field, or pressed Call.
  const [numberEdited, setNumberEdited] = useState(false);
  const [numberTouched, setNumberTouched] = useState(false);
  const [chosenCallerId, setChosenCallerId] = useState('');
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const callerIds = useCallerIds();
  const numberRef = useRef<HTMLInputElement>(null);
  const titleId = useId();

  // One number to call from: it is the choice.
  const onlyCallerId = callerIds.data?.length === 1 ? callerIds.data[0]?.phoneNumber : undefined;
  const callerId = chosenCallerId || onlyCallerId || '';
  const numberError = numberTouched ? phoneNumberProblem(number, country) : null;
  const callerIdError = callerIds.data?.length && !callerId && number.trim() ? 'Please select a caller ID' : null;

  useEffect(() => numberRef.current?.focus(), []);

  const typed = (value: string) => {
    let digits = digitsOf(value);
    // Deleting only a formatting character would bring it straight back: delete the digit before it.
    if (value.length < number.length && digits === digitsOf(number)) digits = digits.slice(0, -1);
    setNumber(formatAsTyped(digits, country));
    setNumberEdited(true);
    setSubmitError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setNumberTouched(true);
    const problem = phoneNumberProblem(number, country);
    if (problem) {
      numberRef.current?.focus();
      return;
    }
    const check = checkPhoneNumber(number, country);
    if (!check.ok || !callerId) return;
    setPending(true);
    const error = await props.onDial(check.number.e164, callerId);
    setPending(false);
    if (error) setSubmitError(error);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      props.onClose();
    }
  };

  return (
    <section
      id={props.id}
      role="dialog"
      aria-labelledby={titleId}
      onKeyDown={onKeyDown}
      // It opens above the call button: on a short screen it scrolls rather than leave the top.
      className={cn(PANEL, 'max-h-[calc(100dvh-6rem)] overflow-y-auto')}
    >
      <h2 id={titleId} className="text-base font-semibold">
        Make a call
      </h2>
      <form noValidate onSubmit={submit} className="mt-3 flex flex-col gap-3">
        <SelectField
          label="Country"
          placeholder="Choose a country"
          value={country}
          onChange={(e) => {
            const next = e.target.value as CountryCode;
            setChosenCountry(next);
            setNumber(formatAsTyped(digitsOf(number), next));
          }}
          options={COUNTRIES.map((c) => ({ value: c.code, label: `${c.name} (${c.dialCode})` }))}
        />
        <TextField
          ref={numberRef}
          label="Phone number"
          type="tel"
          inputMode="tel"
          autoComplete="off"
          value={number}
          onChange={(e) => typed(e.target.value)}
          onBlur={() => numberEdited && setNumberTouched(true)}
          error={numberError ?? undefined}
        />
        {callerIds.isError ? (
          <Alert tone="error">Failed to load available phone numbers</Alert>
        ) : callerIds.data?.length === 0 ? (
          <Alert tone="warning">{NO_CALLER_IDS}</Alert>
        ) : (
          <SelectField
            label="Caller ID"
            placeholder={callerIds.isPending ? 'Loading caller IDs...' : 'Select a caller ID'}
            disabled={callerIds.isPending}
            value={callerId}
            onChange={(e) => setChosenCallerId(e.target.value)}
            options={(callerIds.data ?? []).map((c) => ({
              value: c.phoneNumber,
              label: c.inboxName ? `${format(c.phoneNumber)} · ${c.inboxName}` : format(c.phoneNumber),
            }))}
            error={callerIdError ?? undefined}
          />
        )}
        <Keypad
          label="Dial pad"
          onPress={(digit) => {
            typed(`${number}${digit}`);
            numberRef.current?.focus();
          }}
        />
        {submitError && <Alert tone="error">{submitError}</Alert>}
        <CallButton
          tone="answer"
          type="submit"
          disabled={!number.trim() || !callerId || pending}
          aria-busy={pending || undefined}
        >
          <Phone aria-hidden="true" className="size-4" />
          {pending ? 'Calling...' : 'Call'}
        </CallButton>
      </form>
    </section>
  );
}
