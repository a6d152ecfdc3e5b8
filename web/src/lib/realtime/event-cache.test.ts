import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { TeamUser } from '../../../../shared/contract/settings';
import { callKeys } from '../call-keys';
import { settingsKeys } from '../settings-queries';
import { applyEvent, realtimeKeys, refreshAfterReconnect } from './event-cache';

const ada = { id: 'u1', name: 'Ada Lovelace', since: '2026-01-01T10:00:00.000Z' };
const grace = { id: 'u2', name: 'Grace Hopper', since: '2026-01-01T10:05:00.000Z' };
const team = (ids: string[]) =>
  ids.map(
    (id) => ({ id, name: id, email: `${id}@example.com`, role: 'AGENT', avatarUrl: null, lastActiveAt: null }) satisfies TeamUser,
  );

describe('realtime events in the query cache', () => {
  it('keep the online users: a snapshot replaces them, joins and leaves adjust them, repeats change nothing', () => {
    const cache = new QueryClient();
    const online = () => cache.getQueryData(realtimeKeys.presence);
    applyEvent(cache, { type: 'presence_snapshot', data: { users: [ada] } });
    expect(online()).toEqual([ada]);
    applyEvent(cache, { type: 'user_joined', data: grace });
    applyEvent(cache, { type: 'user_joined', data: grace });
    expect(online()).toEqual([ada, grace]);
    applyEvent(cache, { type: 'user_left', data: { id: 'u1' } });
    applyEvent(cache, { type: 'user_left', data: { id: 'u1' } });
    expect(online()).toEqual([grace]);
    applyEvent(cache, { type: 'presence_snapshot', data: { users: [] } });
    expect(online()).toEqual([]);
  });

  it('mark the team list stale when someone leaves: their Last Active was just recorded', () => {
    const cache = new QueryClient();
    cache.setQueryData(settingsKeys.users, team(['u1', 'u2']));
    applyEvent(cache, { type: 'user_left', data: { id: 'u2' } });
    expect(cache.getQueryState(settingsKeys.users)?.isInvalidated).toBe(true);
  });

  it('mark the team list stale when someone not on it comes online, and after a reconnect', () => {
    const cache = new QueryClient();
    cache.setQueryData(settingsKeys.users, team(['u1', 'u2']));
    const stale = () => cache.getQueryState(settingsKeys.users)?.isInvalidated;
    applyEvent(cache, { type: 'user_joined', data: grace });
    expect(stale()).toBe(false);
    applyEvent(cache, { type: 'user_joined', data: { id: 'u3', name: 'New Colleague', since: grace.since } });
    expect(stale()).toBe(true);

    cache.setQueryData(settingsKeys.users, team(['u1', 'u2', 'u3']));
    expect(stale()).toBe(false);
    refreshAfterReconnect(cache);
    expect(stale()).toBe(true);
  });

  it('mark the providers and channels stale when Twilio is connected or disconnected', () => {
    const cache = new QueryClient();
    cache.setQueryData(settingsKeys.providers, []);
    cache.setQueryData(settingsKeys.channels, []);
    applyEvent(cache, { type: 'provider_changed', data: { providerId: 'p1', connected: true, changedAt: ada.since } });
    expect(cache.getQueryState(settingsKeys.providers)?.isInvalidated).toBe(true);
    expect(cache.getQueryState(settingsKeys.channels)?.isInvalidated).toBe(true);
  });

  it('mark Call History stale when a call ends and after a reconnect: it is not polled while the socket is up', () => {
    const cache = new QueryClient();
    const filters = { status: '', from: '', to: '' };
    const stale = () => cache.getQueryState(callKeys.list(filters))?.isInvalidated;
    cache.setQueryData(callKeys.list(filters), []);
    applyEvent(cache, { type: 'call_answered', data: { callSid: 'CA1', answeredBy: 'u1' } });
    expect(stale()).toBe(false);
    applyEvent(cache, { type: 'call_ended', data: { callSid: 'CA1', callStatus: 'COMPLETED' } });
    expect(stale()).toBe(true);

    cache.setQueryData(callKeys.list(filters), []);
    refreshAfterReconnect(cache);
    expect(stale()).toBe(true);
  });
});
