import { MAX_PICTURE_BYTES, MAX_PICTURES_PER_TEXT } from '@shared/constants';
import type { SendingNumber } from '@shared/contract/conversations';
import { formatAsTyped, phoneNumberProblem, toE164 } from '@shared/phone-numbers';
import { type PictureBlock, pictureBlock, pictureBlockedMessage } from '@shared/pictures';
import { MAX_MESSAGE_LENGTH } from '@shared/sms-segments';
import { UserRound } from 'lucide-react';
import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { Dialog, DialogBody, DialogClose, DialogFooter, DialogForm } from '@/components/dialog';
import { SelectField } from '@/components/select-field';
import { TextAreaField } from '@/components/text-area-field';
import { TextField } from '@/components/text-field';
import { errorMessage } from '@/lib/api-client';
import { type FieldErrors, focusFirstInvalid, serverFieldErrors } from '@/lib/form';
import { useCompanyCountry, usePhoneFormat } from '@/lib/phone-display';
import { useContactMatches, useSendingNumbers, useStartConversation } from '../api/conversations-api';
import { usePictureAttachments } from '../api/picture-uploads-api';
import { pastedFiles, usePictureDrop } from '../hooks/use-picture-drop';
import { AttachPicturesButton, DropHint, PictureThumbnails } from './picture-attachments';

const FIELDS = ['to', 'channelId', 'body'] as const;
type Field = (typeof FIELDS)[number];

export const NO_SENDING_NUMBERS =
  'You have no number to text from. Ask an owner or admin to add you to an inbox with a phone number.';

/** Letters in To: a name to look up in the contact book, not a number to format. */
const isName = (text: string) => /\p{L}/u.test(text);
const digitsOf = (text: string) => text.replace(/(?!^\+)[^\d]/g, '');

/**
 * Why pictures cannot go from this number to `to` (E.164; docs/product.md: Pictures out). Until To is
 * a number, only the sending number's own reason: to itself, the country cannot be one.
 */
function picturesBlock(from: SendingNumber, to: string | null): PictureBlock | null {
  return pictureBlock({ identifier: from.phoneNumber, mms: from.mms }, to ?? from.phoneNumber);
}

/**
 * docs/product.md: New conversation. To (a number formatted as typed for the company's country, or a
 * contact picked by name), From (the numbers the member may text from, with their inbox), and the first
 * text. Sends, then opens the thread (`onStarted`). What was typed stays when the send is refused.
 * It may carry pictures as a reply does (docs/product.md: Pictures out): the sentence of
 * pictureBlockedMessage shows, and Send waits, while the chosen numbers cannot carry them.
 */
export function NewMessageDialog({
  open,
  onOpenChange,
  initialTo,
  onStarted,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** E.164, from a contact's Text action. */
  initialTo?: string;
  onStarted: (conversationId: string) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="New message">
      <NewMessageForm initialTo={initialTo} onStarted={onStarted} />
    </Dialog>
  );
}

function NewMessageForm({ initialTo, onStarted }: { initialTo?: string; onStarted: (conversationId: string) => void }) {
  const country = useCompanyCountry();
  const format = usePhoneFormat();
  const numbers = useSendingNumbers();
  const start = useStartConversation();
  const [to, setTo] = useState(() => (initialTo ? format(initialTo) : ''));
  const [picked, setPicked] = useState<{ name: string; phoneNumber: string } | null>(null);
  const [chosenChannel, setChosenChannel] = useState('');
  const [body, setBody] = useState('');
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const refs = useRef<Partial<Record<Field, HTMLElement | null>>>({});
  const pictures = usePictureAttachments();
  const [preparing, setPreparing] = useState(false);
  const picturesId = useId();

  const search = isName(to) && !picked ? to.trim() : '';
  const matches = useContactMatches(search);
  // One number to text from: it is the choice.
  const only = numbers.data?.length === 1 ? numbers.data[0]?.channelId : undefined;
  const channelId = chosenChannel || only || '';
  const noNumbers = numbers.data?.length === 0;
  const sendingNumber = numbers.data?.find((n) => n.channelId === channelId);
  const toNumber = picked?.phoneNumber ?? (isName(to) ? null : toE164(to, country));
  const withPictures = pictures.attachments.length > 0;
  const block = withPictures && sendingNumber ? picturesBlock(sendingNumber, toNumber) : null;
  const busy = start.isPending || preparing;
  // While a send is on its way, a picture added now would miss it.
  const attach = (files: File[]) => {
    if (!busy) pictures.add(files);
  };
  const drop = usePictureDrop(attach);

  const typedTo = (value: string) => {
    setPicked(null);
    setErrors(({ to: _, ...rest }) => rest);
    if (isName(value)) return setTo(value);
    let digits = digitsOf(value);
    // Deleting only a formatting character would bring it straight back: delete the digit before it.
    if (value.length < to.length && digits === digitsOf(to)) digits = digits.slice(0, -1);
    setTo(formatAsTyped(digits, country));
  };

  const pick = (contact: { name: string; phoneNumber: string }) => {
    setPicked(contact);
    setTo(format(contact.phoneNumber));
    setErrors(({ to: _, ...rest }) => rest);
    refs.current.body?.focus();
  };

  const validate = (): FieldErrors<Field> => {
    const found: FieldErrors<Field> = {};
    const toProblem = isName(to) ? 'Choose a contact from the list, or enter a phone number' : phoneNumberProblem(to, country);
    if (toProblem) found.to = toProblem;
    if (!channelId) found.channelId = 'Choose a number to send from';
    if (!body.trim() && !withPictures) found.body = 'Message content must not be empty';
    return found;
  };

  const submit = () => {
    if (busy || pictures.uploading || pictures.failed || block) return;
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length) return focusFirstInvalid(FIELDS, found, refs.current);
    const startWith = (pictureIds: string[]) =>
      start.mutate(
        { to: picked?.phoneNumber ?? to.trim(), channelId, body, ...(pictureIds.length ? { pictureIds } : {}) },
        {
          onSuccess: (conversation) => {
            pictures.clear();
            onStarted(conversation.id);
          },
          onError: (error) => {
            const fromServer = serverFieldErrors(error, FIELDS);
            setErrors(fromServer);
            focusFirstInvalid(FIELDS, fromServer, refs.current);
          },
        },
      );
    if (!withPictures) return startWith([]);
    setPreparing(true);
    pictures.pictureIds().then(
      (ids) => {
        setPreparing(false);
        startWith(ids);
      },
      // The thumbnail that could not go up again says so, with Retry.
      () => setPreparing(false),
    );
  };

  // Ctrl+Enter (⌘+Enter) sends from the text, as in the thread's composer; Enter alone is a new line.
  const onBodyKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <DialogForm
      onSubmit={submit}
      aria-label="New message"
      className="relative"
      {...drop.dropProps}
      onPaste={(event) => {
        const files = pastedFiles(event);
        if (files.length > 0) attach(files);
      }}
    >
      <DropHint visible={drop.dragging} />
      <DialogBody className="flex flex-col gap-4">
        {start.isError && Object.keys(serverFieldErrors(start.error, FIELDS)).length === 0 && (
          <Alert tone="error">{errorMessage(start.error, 'Failed to send message')}</Alert>
        )}
        {noNumbers && <Alert tone="warning">{NO_SENDING_NUMBERS}</Alert>}
        {numbers.isError && <Alert tone="error">{errorMessage(numbers.error, 'Failed to load your numbers')}</Alert>}
        <div className="flex flex-col gap-2">
          <TextField
            ref={(el) => {
              refs.current.to = el;
            }}
            label="To"
            type="text"
            inputMode="tel"
            autoComplete="off"
            placeholder="Name or phone number"
            maxLength={40}
            value={to}
            onChange={(e) => typedTo(e.target.value)}
            error={errors.to}
            hint={picked ? `${picked.name || 'Contact'} · ${format(picked.phoneNumber)}` : undefined}
          />
          {search && (
            <ul aria-label="Matching contacts" className="flex flex-col rounded-lg border border-border">
              {matches.isPending && <li className="px-3 py-2 text-sm text-muted">Searching contacts...</li>}
              {matches.data?.length === 0 && <li className="px-3 py-2 text-sm text-muted">No contact matches “{search}”</li>}
              {matches.data?.map((c) => (
                <li key={c.id}>
                  <button
                    type="button"
                    onClick={() => pick(c)}
                    className="flex w-full items-center gap-2 px-3 py-2 text-left text-sm hover:bg-surface-muted focus-visible:bg-surface-muted"
                  >
                    <UserRound aria-hidden="true" className="size-4 text-muted" />
                    <span className="font-medium text-fg">{c.name || format(c.phoneNumber)}</span>
                    {c.name && <span className="text-muted">{format(c.phoneNumber)}</span>}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
        <SelectField
          ref={(el) => {
            refs.current.channelId = el;
          }}
          label="From"
          placeholder={numbers.isPending ? 'Loading numbers...' : 'Choose a number'}
          disabled={numbers.isPending || noNumbers}
          options={(numbers.data ?? []).map((n) => ({
            value: n.channelId,
            label: n.inboxName ? `${format(n.phoneNumber)} · ${n.inboxName}` : format(n.phoneNumber),
          }))}
          value={channelId}
          onChange={(e) => {
            setChosenChannel(e.target.value);
            setErrors(({ channelId: _, ...rest }) => rest);
          }}
          error={errors.channelId}
        />
        <TextAreaField
          ref={(el) => {
            refs.current.body = el;
          }}
          label="Message"
          rows={4}
          maxLength={MAX_MESSAGE_LENGTH}
          value={body}
          onChange={(e) => {
            setBody(e.target.value);
            setErrors(({ body: _, ...rest }) => rest);
          }}
          onKeyDown={onBodyKeyDown}
          error={errors.body}
        />
        <div className="flex flex-col gap-2">
          <div className="flex items-center gap-3">
            <AttachPicturesButton onFiles={attach} disabled={busy} />
            <p className="text-xs text-muted">
              Up to {MAX_PICTURES_PER_TEXT} pictures (JPEG, PNG or GIF, {MAX_PICTURE_BYTES / (1024 * 1024)} MB each): choose,
              paste or drop them here.
            </p>
          </div>
          <PictureThumbnails pictures={pictures} disabled={busy} onEmptied={() => refs.current.body?.focus()} />
          {block && sendingNumber && (
            <Alert tone="warning" id={picturesId}>
              {pictureBlockedMessage(block, format(sendingNumber.phoneNumber))}
            </Alert>
          )}
        </div>
      </DialogBody>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="secondary">Cancel</Button>
        </DialogClose>
        <Button
          type="submit"
          pending={busy}
          pendingLabel="Sending..."
          disabled={noNumbers || pictures.uploading || pictures.failed || Boolean(block)}
          aria-describedby={block ? picturesId : undefined}
        >
          Send
        </Button>
      </DialogFooter>
    </DialogForm>
  );
}
