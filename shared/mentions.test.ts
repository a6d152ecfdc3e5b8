import { describe, expect, it } from 'vitest';
import { findMentions, membersMatching, mentionQueryAt, mentionSpans, unresolvedMentions } from './mentions';

const ada = { id: 'u1', name: 'Ada' };
const adaL = { id: 'u2', name: 'Ada Lovelace' };
const grace = { id: 'u3', name: 'Grace Hopper' };
const members = [ada, adaL, grace];

describe('findMentions', () => {
  it('finds whole names after @, case-insensitive, longest first, each once', () => {
    expect(findMentions('@ada lovelace and @Grace Hopper, see this. @GRACE HOPPER again', members)).toEqual([adaL, grace]);
    expect(findMentions('ping @Ada: call back', members)).toEqual([ada]);
    expect(findMentions('(@Grace Hopper)', members)).toEqual([grace]);
  });

  it('ignores e-mail addresses, partial names and unknown names', () => {
    expect(findMentions('write to ada@Ada.com', members)).toEqual([]);
    expect(findMentions('@Adam says hi', members)).toEqual([]);
    expect(findMentions('@Nobody here', members)).toEqual([]);
    expect(findMentions('no mentions', members)).toEqual([]);
  });

  it('says where each mention stands, as written', () => {
    const body = 'Hi @grace hopper, ask @Ada';
    expect(mentionSpans(body, members).map((s) => [body.slice(s.start, s.end), s.member.id])).toEqual([
      ['@grace hopper', 'u3'],
      ['@Ada', 'u1'],
    ]);
  });
});

describe('mentions in any script (docs/product.md §5)', () => {
  const ann = { id: 'u5', name: 'Ann Agent' };
  const strauss = { id: 'u6', name: 'Jo Strauß' };
  const ilkay = { id: 'u7', name: 'İlkay Şahin' };

  it('finds a mention after a dotted capital I, whose lower case is longer than itself', () => {
    expect(findMentions('İstanbul team: @Ann Agent', [ann])).toEqual([ann]);
    const body = 'İİİİİ İstanbul, @ann agent please';
    expect(mentionSpans(body, [ann]).map((s) => body.slice(s.start, s.end))).toEqual(['@ann agent']);
  });

  it('never counts a name glued to a word, however many dotted capitals come before it', () => {
    expect(findMentions('İİİİİ foo@Ann Agent', [ann])).toEqual([]);
    expect(findMentions('İİİİİfoo @Ann Agentx', [ann])).toEqual([]);
    expect(findMentions('foo@Ann Agent', [ann])).toEqual([]);
  });

  it('finds a mention after ß and after emoji, and folds ß and İ in names', () => {
    expect(findMentions('Straße 5 🙂🚀 @Ann Agent', [ann])).toEqual([ann]);
    const body = '👋🏽 @JO STRAUSS and @ilkay şahin';
    expect(mentionSpans(body, [ann, strauss, ilkay]).map((s) => [body.slice(s.start, s.end), s.member.id])).toEqual([
      ['@JO STRAUSS', 'u6'],
      ['@ilkay şahin', 'u7'],
    ]);
  });
});

describe('what the composer reads from the rule', () => {
  it('prefers the member the author picked when two share a name', () => {
    const other = { id: 'u4', name: 'Grace Hopper' };
    expect(findMentions('@Grace Hopper please', [grace, other])).toEqual([grace]);
    expect(findMentions('@Grace Hopper please', [grace, other], ['u4'])).toEqual([other]);
    // A picked id does not make a name that is not written a mention.
    expect(findMentions('no one here', [grace, other], ['u4'])).toEqual([]);
  });

  it('finds the mention being typed before the caret, on its line, of a few words', () => {
    expect(mentionQueryAt('Hi @gr', 6)).toEqual({ start: 3, query: 'gr' });
    expect(mentionQueryAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQueryAt('Hi @Grace Ho', 12)).toEqual({ start: 3, query: 'Grace Ho' });
    expect(mentionQueryAt('ada@example', 11)).toBeNull();
    expect(mentionQueryAt('@grace\nnext', 11)).toBeNull();
    expect(mentionQueryAt('@ grace', 7)).toBeNull();
    expect(mentionQueryAt('@Grace said that we should call', 31)).toBeNull();
  });

  it('offers the members whose name or a word of it starts with the query, by name', () => {
    expect(membersMatching('ho', members)).toEqual([grace]);
    expect(membersMatching('AD', members)).toEqual([ada, adaL]);
    expect(membersMatching('', members)).toEqual([ada, adaL, grace]);
    expect(membersMatching('x', members)).toEqual([]);
  });

  it('flags an @word that names nobody, once, and not a resolved mention or an e-mail address', () => {
    expect(unresolvedMentions('@Grace please double-check, @Grace', [grace])).toEqual(['@Grace']);
    expect(unresolvedMentions('@Grace Hopper please, and @grac.', [grace])).toEqual(['@grac']);
    expect(unresolvedMentions('write to ops@example.com', [grace])).toEqual([]);
    expect(unresolvedMentions('@Ada Lovelace and @Ada', members)).toEqual([]);
  });
});
