import type { MemberRef, Message } from '@shared/contract/conversations';
import { mentionSpans } from '@shared/mentions';
import { StickyNote } from 'lucide-react';
import type { ReactNode } from 'react';
import { RelativeTime } from '@/components/relative-time';
import { MENTION_CHIP } from './message-composer';

/** The note's text in pieces, the `@Name` mentions of `members` (shared/mentions.ts's rule) marked. */
export function mentionPieces(body: string, members: readonly MemberRef[]): { text: string; mention: boolean }[] {
  const pieces: { text: string; mention: boolean }[] = [];
  let from = 0;
  for (const { start, end } of mentionSpans(body, members)) {
    if (start > from) pieces.push({ text: body.slice(from, start), mention: false });
    pieces.push({ text: body.slice(start, end), mention: true });
    from = end;
  }
  if (from < body.length || pieces.length === 0) pieces.push({ text: body.slice(from), mention: false });
  return pieces;
}

/**
 * An internal note: the team's, never sent to the contact, so not a chat bubble: a
 * full-width amber card labelled "Internal note", its author and time, mentions as chips.
 */
export function NoteCard({
  note,
  viewerId,
  dayHeading,
}: {
  note: Message;
  viewerId: string | undefined;
  /** The first message of a day carries the day's heading for assistive technology. */
  dayHeading?: ReactNode;
}) {
  const author = note.sentBy ? (note.sentBy.id === viewerId ? 'You' : note.sentBy.name) : null;
  return (
    <li
      aria-label={author ? `Internal note by ${author}` : 'Internal note'}
      className="rounded-lg border border-warning-border bg-warning-soft px-3.5 py-2.5 text-sm text-fg"
    >
      {dayHeading}
      <p className="mb-1 flex flex-wrap items-center gap-x-2 text-xs text-warning-fg">
        <StickyNote aria-hidden="true" className="size-3.5" />
        <span className="font-semibold">Internal note</span>
        {author && <span className="font-medium">{author}</span>}
        <RelativeTime iso={note.createdAt} />
      </p>
      <p className="wrap-anywhere whitespace-pre-wrap">
        {mentionPieces(note.body, note.mentions).map((piece, i) =>
          piece.mention ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text never reorder
            <mark key={i} className={MENTION_CHIP}>
              {piece.text}
            </mark>
          ) : (
            piece.text
          ),
        )}
      </p>
    </li>
  );
}
