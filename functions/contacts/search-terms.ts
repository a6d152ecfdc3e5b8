/**
 * Search terms of a contact, written as entries beside it (keys.contactSearch), and the prefixes a
 * search looks up among them. A search is then a begins_with Query on those entries, so its cost
 * follows the number of matches, not the size of the contact book.
 *
 * - `N#1#<name>` / `N#2#<number>`: one per contact, the book's order (named A→Z, then unnamed by number).
 * - `T#<text>`: the folded name and e-mail from the start of each word ('ada lovelace', 'lovelace',
 *   'ada.lovelace@example.com', 'lovelace@example.com', 'example.com', 'com'): what a person types
 *   matches the start of a word, and words in order ('ada love').
 * - `D#<digits>`: every suffix of the number's digits down to 4: any run of digits a person types
 *   ('415 555', '+1415', '(415)', '555-0101') is the start of one of them, whatever the notation.
 *   No phone metadata needed, so inbound webhooks that create contacts stay small.
 */

const MAX_WORD_TERMS = 10;
const MAX_TERM_LENGTH = 100;
const MIN_DIGIT_SUFFIX = 4;

export const LIST_PREFIX = 'N#';

/** Lower case, accents removed, spaces collapsed: 'José  Núñez' → 'jose nunez'. */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The text from the start of each word on; `separators` end a word. */
function wordStarts(text: string, separators: RegExp): string[] {
  const terms: string[] = [];
  for (let i = 0; i < text.length && terms.length < MAX_WORD_TERMS; i++) {
    const startsWord = i === 0 || separators.test(text[i - 1] as string);
    if (startsWord && !separators.test(text[i] as string)) terms.push(text.slice(i, i + MAX_TERM_LENGTH));
  }
  return terms;
}

export interface SearchableContact {
  name: string;
  email: string | null;
  phoneNumber: string;
}

/** Every search term of a contact, without duplicates. */
export function searchTerms(contact: SearchableContact): string[] {
  const name = foldText(contact.name);
  const digits = contact.phoneNumber.replace(/\D/g, '');
  const terms = [name ? `${LIST_PREFIX}1#${name.slice(0, MAX_TERM_LENGTH)}` : `${LIST_PREFIX}2#${contact.phoneNumber}`];
  for (const word of wordStarts(name, /\s/)) terms.push(`T#${word}`);
  for (const word of wordStarts(foldText(contact.email ?? ''), /[\s@._+-]/)) terms.push(`T#${word}`);
  for (let start = 0; start <= digits.length - MIN_DIGIT_SUFFIX; start++) terms.push(`D#${digits.slice(start)}`);
  return [...new Set(terms)];
}

/** Typed like a phone number: digits and the marks numbers are written with. */
const PHONE_LIKE = /^[\d\s()+.\-/]*\d[\d\s()+.\-/]*$/;

/**
 * The term prefixes a search looks up; a contact matches any of them. A number typed nationally with
 * a trunk '0' ('020 7946…') also matches without it, as the stored international number has none.
 */
export function searchPrefixes(search: string): string[] {
  const text = foldText(search).slice(0, MAX_TERM_LENGTH);
  if (!text) return [];
  const prefixes = [`T#${text}`];
  if (PHONE_LIKE.test(text)) {
    const digits = text.replace(/\D/g, '');
    prefixes.push(`D#${digits}`);
    const withoutTrunk = digits.replace(/^0+/, '');
    if (withoutTrunk && withoutTrunk !== digits) prefixes.push(`D#${withoutTrunk}`);
  }
  return prefixes;
}
