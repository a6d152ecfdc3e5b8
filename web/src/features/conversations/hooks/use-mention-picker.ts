import { findMentions, type Mentionable, membersMatching, mentionQueryAt, unresolvedMentions } from '@shared/mentions';
import { type KeyboardEvent, type RefObject, useId, useLayoutEffect, useRef, useState } from 'react';

/** More would push the list off a phone's screen; typing more letters narrows it. */
const MAX_OPTIONS = 8;

/**
 * `@` mentions in the note composer (docs/product.md: Conversations, composer): while an `@name` is typed
 * the members it may mean are offered (arrow keys move, Enter or Tab picks, Escape closes, a click
 * picks); a pick writes the whole name, which is what the rule (shared/mentions.ts) resolves, and is
 * remembered so the server mentions that member of two with one name. It also says who the note
 * will tell and which `@words` will tell nobody, except the one still being typed.
 */
export function useMentionPicker({
  body,
  setBody,
  members,
  field,
  enabled,
}: {
  body: string;
  setBody: (value: string) => void;
  members: readonly Mentionable[];
  field: RefObject<HTMLTextAreaElement | null>;
  enabled: boolean;
}) {
  const listId = useId();
  const [caret, setCaret] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [active, setActive] = useState({ query: '', index: 0 });
  const [chosenIds, setChosenIds] = useState<string[]>([]);
  const placeCaret = useRef<number | null>(null);

  const typing = enabled ? mentionQueryAt(body, Math.min(caret, body.length)) : null;
  // Escape (or a pick) holds for that `@` only: deleted or another typed, the list may open again.
  if (dismissedAt !== null && typing?.start !== dismissedAt) setDismissedAt(null);
  const options = typing ? membersMatching(typing.query, members).slice(0, MAX_OPTIONS) : [];
  const open = options.length > 0 && typing !== null && dismissedAt !== typing.start;
  const activeIndex = open && active.query === typing.query ? Math.min(active.index, options.length - 1) : 0;
  const optionId = (index: number) => `${listId}-${index}`;

  // After a pick the caret goes after the inserted name, once React has written it.
  useLayoutEffect(() => {
    if (placeCaret.current === null || !field.current) return;
    field.current.setSelectionRange(placeCaret.current, placeCaret.current);
    placeCaret.current = null;
  });

  const choose = (member: Mentionable) => {
    if (!typing) return;
    const end = Math.min(caret, body.length);
    const inserted = `@${member.name.trim()} `;
    setBody(body.slice(0, typing.start) + inserted + body.slice(end).replace(/^ /, ''));
    const at = typing.start + inserted.length;
    setCaret(at);
    placeCaret.current = at;
    setChosenIds((ids) => (ids.includes(member.id) ? ids : [...ids, member.id]));
    // Picked: what follows this `@` is the name, not a query.
    setDismissedAt(typing.start);
    field.current?.focus();
  };

  /** True when the key was the picker's (the composer then does nothing else with it, not even send). */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || !typing || event.nativeEvent.isComposing) return false;
    const move = (by: number) => setActive({ query: typing.query, index: (activeIndex + by + options.length) % options.length });
    switch (event.key) {
      case 'ArrowDown':
        move(1);
        break;
      case 'ArrowUp':
        move(-1);
        break;
      case 'Enter':
      case 'Tab': {
        const member = options[activeIndex];
        if (!member) return false;
        choose(member);
        break;
      }
      case 'Escape':
        // Closes the list only, not a dialog around the composer.
        event.stopPropagation();
        setDismissedAt(typing.start);
        break;
      default:
        return false;
    }
    event.preventDefault();
    return true;
  };

  // What is being typed is not flagged while it may still become a name (someone's name starts so).
  const settled = typing && options.length > 0 ? body.slice(0, typing.start) + body.slice(Math.min(caret, body.length)) : body;
  const mentioned = findMentions(body, members, chosenIds);

  return {
    listId,
    open,
    options,
    activeIndex,
    optionId,
    choose,
    onKeyDown,
    /** Closes the list (the box lost the keyboard) until another `@` is typed. */
    dismiss: () => typing && setDismissedAt(typing.start),
    /** Follows the caret: where it is decides what is being typed. */
    track: (element: HTMLTextAreaElement) => setCaret(element.selectionStart ?? element.value.length),
    mentioned,
    unresolved: unresolvedMentions(settled, members),
    /** The picked members still written in the note, for the API; none: the rule alone decides. */
    chosenIds: mentioned.filter((m) => chosenIds.includes(m.id)).map((m) => m.id),
    /** After the note is added: a new draft starts with nothing picked. */
    reset: () => setChosenIds([]),
    textareaProps: {
      'aria-autocomplete': 'list' as const,
      'aria-controls': open ? listId : undefined,
      'aria-activedescendant': open ? optionId(activeIndex) : undefined,
    },
  };
}
