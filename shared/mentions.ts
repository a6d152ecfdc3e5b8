/**
 * `@Name` mentions in an internal note, one rule for the API (which resolves and stores
 * them) and the web app (which offers members as the author types, shows who will be told and flags
 * what will tell nobody). A mention is `@` followed by a member's whole name, case-insensitive, at the
 * start of the note or after whitespace or an opening bracket, and not followed by a letter or digit;
 * the longest name wins, so "@Ada Lovelace" is Ada Lovelace even when another member is named "Ada".
 * Of members with the same name, the one the author picked from the list (`chosenIds`) wins.
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

/**
 * A character as names are compared: Unicode's lower case of its upper case, so "ß" and "SS" or "ς"
 * and "Σ" are one letter, and a dotted capital I is an i (its lower case adds a combining dot that no
 * name typed as "i" has).
 */
function fold(text: string): string {
  // Character by character: a whole string would lower a final Σ to ς, a lone one to σ.
  return Array.from(text, (character) => character.toUpperCase().toLowerCase().replace('i\u0307', 'i')).join('');
}

/**
 * Where `folded` (a folded name) ends if the note spells it from `start`, case aside; undefined if not.
 * Read character by character on the note itself, so the index is the note's: folding may change a
 * text's length ("İ" is two code units once lowered), and an index into a folded copy would be wrong.
 */
function spelledEnd(body: string, start: number, folded: string): number | undefined {
  let read = '';
  let at = start;
  while (read.length < folded.length && at < body.length) {
    const character = String.fromCodePoint(body.codePointAt(at) as number);
    read += fold(character);
    at += character.length;
    if (!folded.startsWith(read)) return undefined;
  }
  return read === folded ? at : undefined;
}

/** Every mention in the note, in order (a member mentioned twice has two spans). */
export function mentionSpans<T extends Mentionable>(
  body: string,
  members: readonly T[],
  chosenIds: readonly string[] = [],
): MentionSpan<T>[] {
  const chosen = (m: T) => (chosenIds.includes(m.id) ? 0 : 1);
  const byLength = members
    .filter((m) => m.name.trim().length > 0)
    .map((member) => ({ member, folded: fold(member.name.trim()) }))
    .sort((a, b) => b.folded.length - a.folded.length || chosen(a.member) - chosen(b.member));
  const spans: MentionSpan<T>[] = [];
  for (let at = body.indexOf('@'); at !== -1; at = body.indexOf('@', at + 1)) {
    if (!startsMention(body, at)) continue;
    for (const { member, folded } of byLength) {
      const end = spelledEnd(body, at + 1, folded);
      if (end === undefined) continue;
      const after = body.codePointAt(end);
      if (after !== undefined && wordCharacter.test(String.fromCodePoint(after))) continue;
      spans.push({ start: at, end, member });
      break;
    }
  }
  return spans;
}

/** The members a note mentions, each once, in the order first mentioned. */
export function findMentions<T extends Mentionable>(body: string, members: readonly T[], chosenIds: readonly string[] = []): T[] {
  const found = new Map<string, T>();
  for (const { member } of mentionSpans(body, members, chosenIds)) if (!found.has(member.id)) found.set(member.id, member);
  return [...found.values()];
}

/** Whether an `@` at `at` may begin a mention: at the start, or after whitespace or an opening bracket. */
function startsMention(body: string, at: number): boolean {
  const before = at === 0 ? '' : body.charAt(at - 1);
  return before === '' || /[\s([{]/u.test(before);
}

/** Where the author is typing a mention: the `@` before the caret and what follows it so far. */
export interface MentionQuery {
  start: number;
  query: string;
}

/** A query longer than the longest name anyone would type is prose, not a mention. */
const MAX_QUERY = 60;

/**
 * The mention being typed at `caret`, if any: an `@` that may begin a mention, on the same line,
 * with at most a few words between it and the caret (names have spaces).
 */
export function mentionQueryAt(body: string, caret: number): MentionQuery | null {
  const line = body.slice(0, caret);
  const start = line.lastIndexOf('@');
  if (start === -1 || !startsMention(body, start)) return null;
  const query = line.slice(start + 1);
  if (query.length > MAX_QUERY || /\n/.test(query) || /^\s/u.test(query) || /\s\S*\s\S*\s/u.test(query)) return null;
  return { start, query };
}

/** The members a typed `@query` may mean: a name, or one of its words, starting with it (any case); by name. */
export function membersMatching<T extends Mentionable>(query: string, members: readonly T[]): T[] {
  const q = fold(query.trim());
  return members
    .filter((m) => {
      const name = fold(m.name.trim());
      return name.length > 0 && (name.startsWith(q) || name.split(/\s+/).some((word) => word.startsWith(q)));
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The `@words` that look like a mention but name no member (a first name alone, a typo): they would tell
 * nobody, so the composer flags them before the note is added. A whole-line e-mail address is not one.
 */
export function unresolvedMentions(body: string, members: readonly Mentionable[]): string[] {
  const resolved = new Set(mentionSpans(body, members).map((s) => s.start));
  const found: string[] = [];
  for (const match of body.matchAll(/@[\p{L}\p{N}_][\p{L}\p{N}_'.-]*/gu)) {
    const at = match.index ?? 0;
    if (!startsMention(body, at) || resolved.has(at)) continue;
    const written = match[0].replace(/[.'-]+$/u, '');
    if (!found.includes(written)) found.push(written);
  }
  return found;
}
