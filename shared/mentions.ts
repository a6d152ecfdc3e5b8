/**
 * `@Name` mentions in an internal note, one rule for the API (which resolves and stores
 * them) and the web app (which highlights them while typing). A mention is `@` followed by a member's
 * whole name, case-insensitive, at the start of the note or after whitespace or an opening bracket,
 * and not followed by a letter or digit; the longest name wins, so "@Ada Lovelace" is Ada Lovelace
 * even when another member is named "Ada".
 */

export interface Mentionable {
  id: string;
  name: string;
}

const wordCharacter = /[\p{L}\p{N}_]/u;

/** Where a mention stands in the note: `body.slice(start, end)` is the `@Name` as written. */
export interface MentionSpan<T> {
  start: number;
  end: number;
  member: T;
}

/** Every mention in the note, in order (a member mentioned twice has two spans). */
export function mentionSpans<T extends Mentionable>(body: string, members: readonly T[]): MentionSpan<T>[] {
  const byLength = members.filter((m) => m.name.trim().length > 0).sort((a, b) => b.name.length - a.name.length);
  const spans: MentionSpan<T>[] = [];
  const lower = body.toLowerCase();
  for (let at = lower.indexOf('@'); at !== -1; at = lower.indexOf('@', at + 1)) {
    const before = at === 0 ? '' : body.charAt(at - 1);
    if (before !== '' && !/[\s([{]/u.test(before)) continue;
    const member = byLength.find((m) => {
      const name = m.name.trim().toLowerCase();
      if (!lower.startsWith(name, at + 1)) return false;
      const after = body.charAt(at + 1 + name.length);
      return after === '' || !wordCharacter.test(after);
    });
    if (member) spans.push({ start: at, end: at + 1 + member.name.trim().length, member });
  }
  return spans;
}

/** The members a note mentions, each once, in the order first mentioned. */
export function findMentions<T extends Mentionable>(body: string, members: readonly T[]): T[] {
  const found = new Map<string, T>();
  for (const { member } of mentionSpans(body, members)) if (!found.has(member.id)) found.set(member.id, member);
  return [...found.values()];
}
