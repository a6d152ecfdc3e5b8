import { describe, expect, it } from 'vitest';
import { unreadCount } from './unread';

/** The unread rule of one member and one conversation, without a table. */

const joinedAt = '2026-01-01T09:00:00.000Z';

describe('unreadCount', () => {
  it('with a marker: the inbound texts since it, plus the mentions since', () => {
    const conversation = { inboundCount: 5, lastInboundAt: '2026-01-01T10:00:00.000Z' };
    expect(unreadCount(conversation, { readInboundCount: 5, mentions: 0 }, joinedAt)).toBe(0);
    expect(unreadCount(conversation, { readInboundCount: 3, mentions: 0 }, joinedAt)).toBe(2);
    expect(unreadCount(conversation, { readInboundCount: 5, mentions: 2 }, joinedAt)).toBe(2);
    expect(unreadCount(conversation, { readInboundCount: 4, mentions: 1 }, joinedAt)).toBe(2);
  });

  it('never below the mentions, whatever the marker says (a marker ahead of the counter)', () => {
    expect(unreadCount({ inboundCount: 1, lastInboundAt: joinedAt }, { readInboundCount: 3, mentions: 1 }, joinedAt)).toBe(1);
  });

  it('without a marker: every inbound text when the latest came after the member joined, else none', () => {
    expect(unreadCount({ inboundCount: 4, lastInboundAt: '2026-01-01T09:00:00.001Z' }, undefined, joinedAt)).toBe(4);
    expect(unreadCount({ inboundCount: 4, lastInboundAt: joinedAt }, undefined, joinedAt)).toBe(0);
    expect(unreadCount({ inboundCount: 4, lastInboundAt: '2025-12-31T23:00:00.000Z' }, undefined, joinedAt)).toBe(0);
  });

  it('a conversation stored before the counters were kept has nothing unread', () => {
    expect(unreadCount({}, undefined, joinedAt)).toBe(0);
    expect(unreadCount({}, { readInboundCount: 0, mentions: 0 }, joinedAt)).toBe(0);
  });
});
