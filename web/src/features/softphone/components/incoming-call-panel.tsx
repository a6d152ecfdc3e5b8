import { Phone, PhoneOff } from 'lucide-react';
import { useEffect, useId, useRef } from 'react';
import { usePhoneFormat } from '@/lib/phone-display';
import type { CallInfo } from '../hooks/call-manager';
import { CallButton, PANEL } from './call-buttons';
import { CallTimer } from './call-timer';

/** Puts the keyboard on Answer from anywhere on the page: without it Answer is dozens of Tab presses away. */
export const ANSWER_SHORTCUT = 'Alt+Shift+A';

/** Alt+Shift+A; on a Mac Option+Shift+A types Å, so the key's place counts too. */
const isAnswerShortcut = (event: KeyboardEvent) =>
  event.altKey &&
  event.shiftKey &&
  !event.ctrlKey &&
  !event.metaKey &&
  (event.key.toLowerCase() === 'a' || event.code === 'KeyA');

/**
 * docs/product.md §2: the ringing call, its caller (or Unknown), the number called, how long it has rung. The
 * widget announces the call; ANSWER_SHORTCUT moves focus to Answer (it does not answer: a key meant
 * for the page must never pick up a call).
 */
export function IncomingCallPanel(props: {
  call: CallInfo;
  since: number;
  answering: boolean;
  onAnswer: () => void;
  onReject: () => void;
}) {
  const { call, since, answering } = props;
  const format = usePhoneFormat();
  const titleId = useId();
  const caller = call.from ? format(call.from) : 'Unknown';
  const answer = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isAnswerShortcut(event)) return;
      event.preventDefault();
      answer.current?.focus();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <section aria-labelledby={titleId} tabIndex={-1} data-dock-focus className={PANEL}>
      <div className="flex items-start justify-between gap-3">
        <h2 id={titleId} className="text-sm font-semibold tracking-wide text-muted uppercase">
          Incoming Call
        </h2>
        <CallTimer since={since} label="Ringing for" />
      </div>
      <p className="mt-2 text-lg font-semibold wrap-anywhere">
        <span className="sr-only">Incoming call from </span>
        {caller}
      </p>
      {call.contactName && <p className="text-sm wrap-anywhere text-fg">{call.contactName}</p>}
      {call.to && <p className="mt-1 text-sm text-muted">to {format(call.to)}</p>}
      <div className="mt-4 flex gap-2">
        <CallButton tone="end" onClick={props.onReject} disabled={answering}>
          <PhoneOff aria-hidden="true" className="size-4" />
          Reject
        </CallButton>
        <CallButton
          ref={answer}
          tone="answer"
          onClick={props.onAnswer}
          disabled={answering}
          aria-busy={answering || undefined}
          aria-keyshortcuts={ANSWER_SHORTCUT}
          title={`Answer (${ANSWER_SHORTCUT})`}
        >
          <Phone aria-hidden="true" className="size-4" />
          Answer
        </CallButton>
      </div>
      {/* For the keyboard: a touch screen has no use for it. */}
      <p className="mt-3 text-xs text-muted pointer-coarse:hidden">
        <kbd className="font-sans font-semibold">{ANSWER_SHORTCUT}</kbd>, then Enter, answers
      </p>
    </section>
  );
}
