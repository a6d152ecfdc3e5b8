import { describe, expect, it } from 'vitest';
import { foldText, searchPrefixes, searchTerms } from './search-terms';

const matches = (search: string, contact: Parameters<typeof searchTerms>[0]) => {
  const terms = searchTerms(contact);
  return searchPrefixes(search).some((prefix) => terms.some((term) => term.startsWith(prefix)));
};

const ada = { name: 'Ada Lovelace', email: 'Ada.Lovelace@Example.com', phoneNumber: '+14155550101' };
const london = { name: '', email: null, phoneNumber: '+442079460958' };

describe('contact search terms', () => {
  it('folds case, accents and spaces', () => {
    expect(foldText('  José   NÚÑEZ ')).toBe('jose nunez');
  });

  it.each([
    'ada',
    'ADA',
    'love',
    'ada love',
    'lovelace@ex',
    'example.com',
    '415 555',
    '+1 415',
    '(415)',
    '555-0101',
    '14155550101',
  ])('finds Ada by %j', (search) => {
    expect(matches(search, ada)).toBe(true);
  });

  it.each(['bob', 'love ada', '416', 'gmail'])('does not find Ada by %j', (search) => {
    expect(matches(search, ada)).toBe(false);
  });

  it('finds an international number in its national notation, trunk 0 included', () => {
    expect(matches('020 7946 0958', london)).toBe(true);
    expect(matches('+44 20 7946', london)).toBe(true);
  });

  it('orders the book by name, unnamed contacts after by number', () => {
    expect(searchTerms(ada)[0]).toBe('N#1#ada lovelace');
    expect(searchTerms(london)[0]).toBe('N#2#+442079460958');
  });

  it('has no terms for an empty search', () => {
    expect(searchPrefixes('   ')).toEqual([]);
  });
});
