import { describe, expect, it } from 'vitest';
import { formatDate } from './format-date';

describe('formatDate', () => {
  it('writes a date with the month in words, never as digits that read differently per country', () => {
    expect(formatDate('2026-11-22T12:00:00.000Z')).toBe('Nov 22, 2026');
  });

  it.each([null, undefined, '', 'not a date'])('is empty for %j', (value) => {
    expect(formatDate(value)).toBe('');
  });
});
