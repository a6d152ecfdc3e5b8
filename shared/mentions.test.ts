import { describe, expect, it } from 'vitest';
import { findMentions, mentionSpans } from './mentions';

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
