import { act } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionState } from '@/lib/realtime/realtime-client';
import { endpoints, ok, renderWithProviders, signInAs, stubServer, urlOf } from '@/test-utils';
import { useConversationList, useThread } from './conversations-api';

// The socket's health as the hooks read it, set by the test.
const socket = vi.hoisted(() => ({ state: 'connected' as ConnectionState, listeners: new Set<() => void>() }));
vi.mock('@/lib/realtime/realtime', async () => {
  const { useSyncExternalStore } = await import('react');
  return {
    useRealtimeState: () =>
      useSyncExternalStore(
        (l: () => void) => {
          socket.listeners.add(l);
          return () => socket.listeners.delete(l);
        },
        () => socket.state,
      ),
  };
});
const setSocket = (state: ConnectionState) =>
  act(() => {
    socket.state = state;
    for (const l of socket.listeners) l();
  });

let markSent: () => void = () => {};
function Screen() {
  const [sentAt, setSentAt] = useState<number | null>(null);
  markSent = () => setSentAt(Date.now());
  useConversationList('OPEN');
  useThread('cv-1', sentAt);
  return null;
}

describe('the list and the thread poll only while the socket is down', () => {
  let requests: ReturnType<typeof stubServer>;
  const reads = () => ({
    list: requests.filter((r) => new URL(r.url, 'http://app').pathname === urlOf(endpoints.listConversations)).length,
    thread: requests.filter((r) => new URL(r.url, 'http://app').pathname === urlOf(endpoints.getConversation, { id: 'cv-1' }))
      .length,
  });
  const pass = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    signInAs('OWNER');
    socket.state = 'connected';
    requests = stubServer((r) =>
      r.url.includes('/conversations/cv-1')
        ? ok({ conversation: { id: 'cv-1', messages: [], olderCursor: null } })
        : ok({ conversations: [], total: 0, pagination: { total: 0, nextCursor: null } }),
    );
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('connected: no read for a minute, nor a burst after a send; dropped: every 60 s and 2 s after a send', async () => {
    renderWithProviders(<Screen />);
    await pass(100);
    expect(reads()).toEqual({ list: 1, thread: 1 });

    await pass(65_000);
    expect(reads()).toEqual({ list: 1, thread: 1 });
    act(() => markSent());
    await pass(10_000);
    expect(reads()).toEqual({ list: 1, thread: 1 });

    // The socket drops: the thread is within 30 s of the send (every 2 s), the list back to 60 s.
    setSocket('disconnected');
    await pass(10_000);
    expect(reads().list).toBe(1);
    expect(reads().thread).toBeGreaterThanOrEqual(4);
    await pass(60_000);
    expect(reads().list).toBe(2);

    // Back: quiet again.
    setSocket('connected');
    const before = reads();
    await pass(120_000);
    expect(reads()).toEqual(before);
  });
});
