import { describe, expect, it, vi } from 'vitest';
import { formatDate } from './format-date';
import { formatRelativeTime } from './relative-time';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const now = new Date('2025-03-15T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

describe('formatRelativeTime (docs/product.md §2)', () => {
  it.each([null, undefined, '', 'not a date', '2025-13-45T99:00:00Z'])('is Never for %j', (value) => {
    expect(formatRelativeTime(value, now)).toBe('Never');
  });

  it.each([
    ['0 s', 0, 'Just now'],
    ['59 s', 59 * SECOND, 'Just now'],
    ['59.999 s', MINUTE - 1, 'Just now'],
    ['60 s', MINUTE, '1m ago'],
    ['119 s', 2 * MINUTE - SECOND, '1m ago'],
    ['5 min', 5 * MINUTE, '5m ago'],
    ['59 min', 59 * MINUTE, '59m ago'],
    ['59 min 59 s', HOUR - SECOND, '59m ago'],
    ['60 min', HOUR, '1h ago'],
    ['2 h 30', 2 * HOUR + 30 * MINUTE, '2h ago'],
    ['23 h 59', 23 * HOUR + 59 * MINUTE, '23h ago'],
    ['24 h', DAY, '1d ago'],
    ['47 h 59', 2 * DAY - MINUTE, '1d ago'],
    ['6 d 23 h', 6 * DAY + 23 * HOUR, '6d ago'],
    ['6 d 23 h 59 min 59 s', 7 * DAY - SECOND, '6d ago'],
  ])('%s ago reads %s', (_label, elapsed, expected) => {
    expect(formatRelativeTime(ago(elapsed), now)).toBe(expected);
  });

  it.each([
    ['7 d', 7 * DAY],
    ['30 d', 30 * DAY],
    ['400 d', 400 * DAY],
  ])('%s ago is the local date of the timestamp, as the app writes every date', (_label, elapsed) => {
    const iso = ago(elapsed);
    const result = formatRelativeTime(iso, now);
    expect(result).toBe(formatDate(iso));
    expect(result).not.toBe(formatDate(now.toISOString()));
    expect(result).not.toMatch(/ago|Just now|Never/);
  });

  it('writes an old date the same way as every other date of the app', () => {
    expect(formatRelativeTime('2026-11-12T12:00:00.000Z', new Date('2026-11-22T12:00:00.000Z'))).toBe('Nov 12, 2026');
  });

  it('reads a future timestamp (clock skew) as Just now', () => {
    expect(formatRelativeTime(ago(-5 * MINUTE), now)).toBe('Just now');
    expect(formatRelativeTime(ago(-3 * DAY), now)).toBe('Just now');
  });

  it('accepts ISO strings with an offset', () => {
    expect(formatRelativeTime('2025-03-15T13:30:00+02:00', now)).toBe('30m ago');
  });

  it('measures from the current time by default', () => {
    vi.useFakeTimers();
    vi.setSystemTime(now);
    expect(formatRelativeTime(ago(3 * HOUR))).toBe('3h ago');
    vi.setSystemTime(new Date(now.getTime() + 2 * DAY));
    expect(formatRelativeTime(ago(3 * HOUR))).toBe('2d ago');
  });
});
