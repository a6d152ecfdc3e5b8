import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDay } from './format-date';

describe('formatDate', () => {
  it('writes a date with the month in words, never as digits that read differently per country', () => {
    expect(formatDate('2026-11-22T12:00:00.000Z')).toBe('Nov 22, 2026');
  });

  it.each([null, undefined, '', 'not a date'])('is empty for %j', (value) => {
    expect(formatDate(value)).toBe('');
  });
});

describe('formatDay', () => {
  const now = new Date(2026, 2, 10, 0, 30);
  it('says Today and Yesterday by the reader’s calendar, and the date before that', () => {
    expect(formatDay(new Date(2026, 2, 10, 0, 1).toISOString(), now)).toBe('Today');
    expect(formatDay(new Date(2026, 2, 9, 23, 59).toISOString(), now)).toBe('Yesterday');
    expect(formatDay(new Date(2026, 2, 8, 12, 0).toISOString(), now)).toBe('Mar 8, 2026');
    // Across a month's end.
    expect(formatDay(new Date(2026, 1, 28, 12).toISOString(), new Date(2026, 2, 1, 9))).toBe('Yesterday');
  });
});

describe('formatDateTime', () => {
  it('writes the moment exactly, with the weekday, the date in words and the time', () => {
    expect(formatDateTime(new Date(2026, 10, 22, 15, 5).toISOString())).toMatch(/^Sunday, November 22, 2026.*3:05\sPM$/);
    expect(formatDateTime('not a date')).toBe('');
  });
});
