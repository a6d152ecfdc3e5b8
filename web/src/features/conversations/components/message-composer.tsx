import { MAX_NOTE_LENGTH } from '@shared/constants';
import type { MemberRef } from '@shared/contract/conversations';
import { MAX_MESSAGE_LENGTH, smsSegments } from '@shared/sms-segments';
import { useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, Ban, SendHorizontal, StickyNote } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { useSession } from '@/hooks/use-session';
import { errorMessage } from '@/lib/api-client';
import { binaryKey } from '@/lib/binary-url';
import { cn } from '@/lib/cn';
import { plural } from '@/lib/plural';
import { useUnsavedWork } from '@/lib/unsaved-work';
import { useAddNote, useAssignableMembers, useSendMessage } from '../api/conversations-api';
import { usePictureAttachments } from '../api/picture-uploads-api';
import { useChosenFromList } from '../hooks/use-conversation-selection';
import { useMentionPicker } from '../hooks/use-mention-picker';
import { pastedFiles, usePictureDrop } from '../hooks/use-picture-drop';
import { MentionList } from './mention-list';
import { AttachPicturesButton, DropHint, PictureThumbnails } from './picture-attachments';

/** The ids of the descriptions that apply, for aria-describedby. */
const describedBy = (ids: (string | false)[]) => ids.filter(Boolean).join(' ') || undefined;

/** The counter appears this many characters before a text needs a second segment. */
const NEAR_ONE_SEGMENT = 20;
/** …and switches to 'n / 1,600' this close to the limit. */
const NEAR_LIMIT = 200;
const LIMIT_TEXT = MAX_MESSAGE_LENGTH.toLocaleString('en-US');
const NOTE_LIMIT_TEXT = MAX_NOTE_LENGTH.toLocaleString('en-US');

/** How a mention looks, in the note and in the composer's "Notifies" line. */
export const MENTION_CHIP = 'rounded-full bg-warning-border/40 px-1.5 py-0.5 font-semibold text-warning-fg';

/** What the composer says of `@words` that name nobody (shared/mentions.ts): they would tell nobody. */
export function unresolvedText(words: readonly string[]): string {
  const quoted = words.map((w) => `“${w}”`).join(', ');
  return `${quoted} ${words.length === 1 ? 'matches' : 'match'} no teammate and will notify nobody. Type @ and pick a name from the list.`;
}

/** Reply texts the contact; Note writes to the team only. */
type ComposeMode = 'reply' | 'note';
const MODES: { value: ComposeMode; label: string }[] = [
  { value: 'reply', label: 'Reply' },
  { value: 'note', label: 'Note' },
];

/**
 * A Reply / Note switch (two radios: arrow keys move between them). Each mode keeps its own
 * draft, so switching loses nothing and a note never goes out as a text; Note mode is amber, says it is
 * internal, allows MAX_NOTE_LENGTH and is not held back by what blocks texts.
 * docs/product.md §2/§5 composer: a blank or whitespace-only text is not sent; Enter sends, Shift+Enter starts a
 * new line; the text is cleared once the server has it and kept, with the server's message, when it
 * refuses. Near one segment and near the limit it counts characters and segments. While texts cannot
 * be sent (Twilio disconnected…) it says why and is disabled, keeping what was typed. A conversation
 * chosen from the list puts the keyboard here, so the agent can type at once.
 * A reply may carry pictures (docs/product.md: Pictures out), from the button, a paste or a drop, uploaded as
 * they are attached; Send waits for every upload, and a text may be pictures only. A drop or paste of
 * pictures in Note mode goes to the reply (notes carry none), which the switch then shows.
 */
export function MessageComposer({
  conversationId,
  onSent,
  blockedReason,
  notesOnly = false,
  picturesBlockedReason,
  members,
}: {
  conversationId: string;
  /** Who may be mentioned: the conversation detail's `members`, those who see it (docs/product.md: Who sees what). */
  members: readonly MemberRef[];
  onSent: () => void;
  /** Texts are not possible at all (the contact opted out): notes only, no switch. */
  notesOnly?: boolean;
  /** Why texts cannot be sent now (Twilio disconnected…): shown, tied to the field and Send, both disabled. */
  blockedReason?: string | null;
  /** Why texts here cannot carry pictures (pictureBlockedMessage): the attach button says it instead. */
  picturesBlockedReason?: string | null;
}) {
  const [chosenMode, setMode] = useState<ComposeMode>('reply');
  const mode = notesOnly ? 'note' : chosenMode;
  const [drafts, setDrafts] = useState<Record<ComposeMode, string>>({ reply: '', note: '' });
  const note = mode === 'note';
  const body = drafts[mode];
  const setBody = (value: string) => setDrafts((d) => ({ ...d, [mode]: value }));
  const sendText = useSendMessage(conversationId);
  const addNote = useAddNote(conversationId);
  const send = note ? addNote : sendText;
  const pictures = usePictureAttachments();
  // Expired uploads go up again before the send (usePictureAttachments: pictureIds).
  const [preparing, setPreparing] = useState(false);
  const queryClient = useQueryClient();
  const fieldId = useId();
  const counterId = useId();
  const blockedId = useId();
  const modeName = useId();
  const unresolvedId = useId();
  const blocked = Boolean(blockedReason) && !note;
  const blank = body.trim().length === 0;
  const withPictures = !note && pictures.attachments.length > 0;
  const picturesWaiting = withPictures && (pictures.uploading || pictures.failed);
  // The thread learnt meanwhile that pictures cannot go (its number lost MMS): they must be removed.
  const picturesRefused = withPictures && Boolean(picturesBlockedReason);
  const busy = send.isPending || preparing;
  const nothingToSend = blank && !withPictures;
  const limit = note ? MAX_NOTE_LENGTH : MAX_MESSAGE_LENGTH;
  const tooLong = body.length > limit;
  const segments = smsSegments(body);
  const showCounter = note
    ? body.length > MAX_NOTE_LENGTH - NEAR_LIMIT
    : segments.segments > 1 || segments.units >= segments.perSegment - NEAR_ONE_SEGMENT;
  const field = useRef<HTMLTextAreaElement>(null);
  const chosen = useChosenFromList();
  const viewerId = useSession()?.user.id;
  const team = useAssignableMembers(members);
  // Only members who see the conversation are offered; mentioning oneself tells nobody, so one is not offered.
  const mentionable = useMemo(
    () => (team.data?.offered ?? []).filter((m) => m.id !== viewerId).map((m) => ({ id: m.id, name: m.name })),
    [team.data, viewerId],
  );
  const picker = useMentionPicker({
    body: drafts.note,
    setBody: (value) => setDrafts((d) => ({ ...d, note: value })),
    members: mentionable,
    field,
    enabled: note,
  });
  const picturesId = useId();
  // Drafts live only in this tab: a new release asks before it reloads (docs/product.md: A new version while a tab is open).
  useUnsavedWork('draft', drafts.reply.trim() !== '' || drafts.note.trim() !== '' || pictures.attachments.length > 0);

  /** Pictures from the button, a paste or a drop; in Note mode they go to the reply. */
  const attach = (files: File[]) => {
    // While a send is on its way, a picture added now would miss it and go with the sent draft.
    if (notesOnly || blockedReason || busy) return;
    if (picturesBlockedReason) return pictures.refuse(picturesBlockedReason);
    if (note) setMode('reply');
    pictures.add(files);
  };
  const drop = usePictureDrop(attach);

  useEffect(() => {
    // Not on a touch screen: its keyboard would cover the thread the agent opened to read.
    if (chosen && !window.matchMedia?.('(pointer: coarse)').matches) field.current?.focus();
  }, [chosen]);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (nothingToSend || tooLong || blocked || busy || picturesWaiting || picturesRefused) return;
    if (note) {
      addNote.mutate(picker.chosenIds.length ? { body, mentionIds: picker.chosenIds } : { body }, {
        onSuccess: () => {
          setDrafts((d) => ({ ...d, note: '' }));
          picker.reset();
        },
      });
      return;
    }
    const files = pictures.attachments.map((a) => a.file);
    const sendWith = (pictureIds: string[]) =>
      sendText.mutate(
        { body, pictureIds },
        {
          onSuccess: (message) => {
            // The thread shows the sent pictures from the bytes at hand rather than reading them back.
            if (message.media.length === files.length) {
              for (const [index, media] of message.media.entries()) queryClient.setQueryData(binaryKey(media.url), files[index]);
            }
            setDrafts((d) => ({ ...d, reply: '' }));
            pictures.clear();
            onSent();
          },
        },
      );
    if (files.length === 0) return sendWith([]);
    setPreparing(true);
    pictures.pictureIds().then(
      (ids) => {
        setPreparing(false);
        sendWith(ids);
      },
      // The thumbnail that could not go up again says so, with Retry.
      () => setPreparing(false),
    );
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (note && picker.onKeyDown(event)) return;
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      {...(notesOnly || blocked ? {} : drop.dropProps)}
      onPaste={(event) => {
        const files = pastedFiles(event);
        if (files.length > 0) attach(files);
      }}
      className={cn(
        'relative flex flex-col gap-2 border-t p-3 sm:p-4',
        note ? 'border-warning-border bg-warning-soft' : 'border-border bg-surface',
      )}
    >
      <DropHint visible={drop.dragging} />
      <fieldset hidden={notesOnly} className="flex w-fit gap-1 rounded-lg bg-surface-muted p-1">
        <legend className="sr-only">Write a</legend>
        {MODES.map((option) => (
          <label
            key={option.value}
            className={cn(
              'flex min-h-8 cursor-pointer items-center rounded-md px-3 text-sm font-semibold has-focus-visible:ring-2 has-focus-visible:ring-ring',
              mode === option.value ? 'bg-surface text-fg shadow-sm' : 'text-muted hover:text-fg',
            )}
          >
            <input
              type="radio"
              name={modeName}
              value={option.value}
              checked={mode === option.value}
              onChange={() => setMode(option.value)}
              className="sr-only"
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      {blockedReason && !note && (
        <p
          id={blockedId}
          role="status"
          className="flex items-start gap-2 rounded-lg border border-border bg-surface-muted px-3 py-2 text-sm text-fg"
        >
          <Ban aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted" />
          {blockedReason}
        </p>
      )}
      {send.isError && !blocked && (
        <Alert tone="error">{errorMessage(send.error, note ? 'Failed to add note' : 'Failed to send message')}</Alert>
      )}
      {picturesRefused && (
        <p id={picturesId} role="status" className="text-sm text-fg">
          {picturesBlockedReason}
        </p>
      )}
      {!note && <PictureThumbnails pictures={pictures} disabled={busy} onEmptied={() => field.current?.focus()} />}
      <label htmlFor={fieldId} className="sr-only">
        {note ? 'Internal note' : 'Message'}
      </label>
      <div className="flex items-end gap-2">
        <div className="relative flex min-w-0 flex-1">
          {picker.open && (
            <MentionList
              id={picker.listId}
              options={picker.options}
              activeIndex={picker.activeIndex}
              optionId={picker.optionId}
              onChoose={picker.choose}
            />
          )}
          <textarea
            ref={field}
            id={fieldId}
            value={body}
            onChange={(event) => {
              setBody(event.target.value);
              picker.track(event.target);
            }}
            onSelect={(event) => picker.track(event.currentTarget)}
            onBlur={picker.dismiss}
            onKeyDown={onKeyDown}
            {...(note ? picker.textareaProps : {})}
            rows={2}
            placeholder={note ? 'Write an internal note… @mention a teammate' : 'Type a message…'}
            disabled={blocked}
            aria-describedby={describedBy([
              blocked && blockedId,
              (showCounter || tooLong) && counterId,
              note && picker.unresolved.length > 0 && unresolvedId,
            ])}
            aria-invalid={tooLong || undefined}
            className={cn(
              'max-h-40 min-h-11 min-w-0 flex-1 resize-y rounded-lg border bg-surface px-3 py-2 text-sm text-fg placeholder:text-muted',
              'disabled:cursor-not-allowed disabled:bg-surface-muted',
              tooLong ? 'border-danger' : note ? 'border-warning-border' : 'border-border',
            )}
          />
        </div>
        {!notesOnly && !note && (
          <AttachPicturesButton
            onFiles={attach}
            blockedReason={picturesBlockedReason}
            onRefused={() => picturesBlockedReason && pictures.refuse(picturesBlockedReason)}
            disabled={blocked || busy}
          />
        )}
        <Button
          type="submit"
          disabled={nothingToSend || tooLong || blocked || picturesWaiting || picturesRefused}
          aria-describedby={blocked ? blockedId : picturesRefused ? picturesId : undefined}
          pending={busy}
          pendingLabel={note ? 'Adding…' : 'Sending…'}
        >
          {note ? <StickyNote aria-hidden="true" className="size-4" /> : <SendHorizontal aria-hidden="true" className="size-4" />}
          {note ? 'Add note' : 'Send'}
        </Button>
      </div>
      {/* The keyboard hint is for a keyboard: on a narrow screen its line is left to the messages (docs/product.md §2.5). */}
      <div
        className={cn(
          'flex flex-wrap items-center justify-between gap-x-4 gap-y-1 text-xs text-muted',
          !note && !(showCounter || tooLong) && 'max-md:hidden',
        )}
      >
        {note ? (
          <span className="text-warning-fg">Only your team sees notes. Enter to add, Shift+Enter for a new line</span>
        ) : (
          !blocked && <span className="max-md:hidden">Enter to send, Shift+Enter for a new line</span>
        )}
        {(showCounter || tooLong) && (
          <span id={counterId} className={cn(tooLong && 'font-semibold text-danger')}>
            {body.length > limit - NEAR_LIMIT
              ? `${body.length.toLocaleString('en-US')} / ${note ? NOTE_LIMIT_TEXT : LIMIT_TEXT} characters`
              : plural(body.length, 'character')}
            {!note && ` · ${plural(segments.segments, 'segment')}`}
          </span>
        )}
      </div>
      {note && picker.mentioned.length > 0 && (
        <p className="flex flex-wrap items-center gap-1.5 text-xs text-warning-fg">
          Notifies
          {picker.mentioned.map((member) => (
            <span key={member.id} className={MENTION_CHIP}>
              @{member.name}
            </span>
          ))}
        </p>
      )}
      {note && picker.unresolved.length > 0 && (
        <p id={unresolvedId} role="status" className="flex items-start gap-1.5 text-xs font-medium text-warning-fg">
          <AlertTriangle aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
          {unresolvedText(picker.unresolved)}
        </p>
      )}
      {tooLong && (
        <p role="alert" className="text-xs font-semibold text-danger">
          {note ? `A note can be at most ${NOTE_LIMIT_TEXT} characters.` : `A message can be at most ${LIMIT_TEXT} characters.`}
        </p>
      )}
    </form>
  );
}
