import { Ban, SendHorizontal } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { MAX_MESSAGE_LENGTH, smsSegments } from '../../../../../shared/sms-segments';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { errorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { plural } from '../../../lib/plural';
import { useSendMessage } from '../api/conversations-api';
import { useChosenFromList } from '../hooks/use-conversation-selection';

/** The ids of the descriptions that apply, for aria-describedby. */
const describedBy = (ids: (string | false)[]) => ids.filter(Boolean).join(' ') || undefined;

/** The counter appears this many characters before a text needs a second segment. */
const NEAR_ONE_SEGMENT = 20;
/** …and switches to 'n / 1,600' this close to the limit. */
const NEAR_LIMIT = 200;
const LIMIT_TEXT = MAX_MESSAGE_LENGTH.toLocaleString('en-US');

/**
 * docs/product.md §2/§5 composer: a blank or whitespace-only text is not sent; Enter sends, Shift+Enter starts a
 * new line; the text is cleared once the server has it and kept, with the server's message, when it
 * refuses. Near one segment and near the limit it counts characters and segments. While texts cannot
 * be sent (Twilio disconnected…) it says why and is disabled, keeping what was typed. A conversation
 * chosen from the list puts the keyboard here, so the agent can type at once.
 */
export function MessageComposer({
  conversationId,
  onSent,
  blockedReason,
}: {
  conversationId: string;
  onSent: () => void;
  /** Why texts cannot be sent now (Twilio disconnected…): shown, tied to the field and Send, both disabled. */
  blockedReason?: string | null;
}) {
  const [body, setBody] = useState('');
  const send = useSendMessage(conversationId);
  const fieldId = useId();
  const counterId = useId();
  const blockedId = useId();
  const blocked = Boolean(blockedReason);
  const blank = body.trim().length === 0;
  const tooLong = body.length > MAX_MESSAGE_LENGTH;
  const segments = smsSegments(body);
  const showCounter = segments.segments > 1 || segments.units >= segments.perSegment - NEAR_ONE_SEGMENT;
  const field = useRef<HTMLTextAreaElement>(null);
  const chosen = useChosenFromList();

  useEffect(() => {
    // Not on a touch screen: its keyboard would cover the thread the agent opened to read.
    if (chosen && !window.matchMedia?.('(pointer: coarse)').matches) field.current?.focus();
  }, [chosen]);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (blank || tooLong || blocked || send.isPending) return;
    send.mutate(body, {
      onSuccess: () => {
        setBody('');
        onSent();
      },
    });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-2 border-t border-border bg-surface p-3 sm:p-4">
      {blockedReason && (
        <p
          id={blockedId}
          role="status"
          className="flex items-start gap-2 rounded-lg border border-border bg-surface-muted px-3 py-2 text-sm text-fg"
        >
          <Ban aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted" />
          {blockedReason}
        </p>
      )}
      {send.isError && !blocked && <Alert tone="error">{errorMessage(send.error, 'Failed to send message')}</Alert>}
      <label htmlFor={fieldId} className="sr-only">
        Message
      </label>
      <div className="flex items-end gap-2">
        <textarea
          ref={field}
          id={fieldId}
          value={body}
          onChange={(event) => setBody(event.target.value)}
          onKeyDown={onKeyDown}
          rows={2}
          placeholder="Type a message…"
          disabled={blocked}
          aria-describedby={describedBy([blocked && blockedId, (showCounter || tooLong) && counterId])}
          aria-invalid={tooLong || undefined}
          className={cn(
            'max-h-40 min-h-11 min-w-0 flex-1 resize-y rounded-lg border bg-surface px-3 py-2 text-sm text-fg placeholder:text-muted',
            'disabled:cursor-not-allowed disabled:bg-surface-muted',
            tooLong ? 'border-danger' : 'border-border',
          )}
        />
        <Button
          type="submit"
          disabled={blank || tooLong || blocked}
          aria-describedby={blocked ? blockedId : undefined}
          pending={send.isPending}
          pendingLabel="Sending…"
        >
          <SendHorizontal aria-hidden="true" className="size-4" />
          Send
        </Button>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 text-xs text-muted">
        {!blocked && <span>Enter to send, Shift+Enter for a new line</span>}
        {(showCounter || tooLong) && (
          <span id={counterId} className={cn(tooLong && 'font-semibold text-danger')}>
            {body.length > MAX_MESSAGE_LENGTH - NEAR_LIMIT
              ? `${body.length.toLocaleString('en-US')} / ${LIMIT_TEXT} characters`
              : plural(body.length, 'character')}
            {' · '}
            {plural(segments.segments, 'segment')}
          </span>
        )}
      </div>
      {tooLong && (
        <p role="alert" className="text-xs font-semibold text-danger">
          A message can be at most {LIMIT_TEXT} characters.
        </p>
      )}
    </form>
  );
}
