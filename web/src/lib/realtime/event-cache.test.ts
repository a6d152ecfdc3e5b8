import type { Call } from '@shared/contract/calls';
import type { ChannelHealth } from '@shared/contract/channel-health';
import type { Channel, TeamUser } from '@shared/contract/settings';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { endpoints, urlOf } from '../../test-utils';
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
    const filters = { status: '', from: '', to: '', voicemail: '' };
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

  it("mark Call History and the Dashboard's voicemail count stale when a caller leaves a voicemail", () => {
    const cache = new QueryClient();
    const voicemails = callKeys.list({ status: '', from: '', to: '', voicemail: 'true' });
    cache.setQueryData(voicemails, []);
    const call: Call = {
      id: 'call-9',
      providerCallId: 'CA9',
      recordingUrl: null,
      legs: [],
      held: false,
      holdSeconds: 0,
      direction: 'INBOUND',
      callStatus: 'NO_ANSWER',
      contact: { id: null, name: '', phoneNumber: '+14155550191' },
      channel: { id: 'ch-1', phoneNumber: '+12025550100' },
      durationSeconds: 0,
      createdAt: '2026-01-01T10:00:00.000Z',
      answeredBy: null,
      voicemail: {
        durationSeconds: 42,
        url: urlOf(endpoints.voicemailAudio, { id: 'call-9' }),
        createdAt: '2026-01-01T10:01:00.000Z',
        listened: false,
      },
    };
    applyEvent(cache, { type: 'voicemail_received', data: { callId: call.id, call } });
    expect(cache.getQueryState(voicemails)?.isInvalidated).toBe(true);
  });

  it("show a channel health change at once: the list's badge, the health query's status, then its details fetched again", () => {
    const cache = new QueryClient();
    const brief = (status: Channel['health']['status']) => ({ status, checkedAt: '2026-01-01T10:00:00.000Z' });
    const channels = [
      { id: 'ch-1', health: brief('HEALTHY') },
      { id: 'ch-2', health: brief('HEALTHY') },
    ] as Channel[];
    cache.setQueryData(settingsKeys.channels, channels);
    const details = { status: 'HEALTHY', checkedAt: null, problems: [], delivery: { sent: 3 } } as unknown as ChannelHealth;
    cache.setQueryData(settingsKeys.channelHealth('ch-1'), details);
    cache.setQueryData(settingsKeys.channelHealth('ch-2'), details);

    applyEvent(cache, { type: 'channel_health_changed', data: { channelId: 'ch-1', health: brief('DRIFTED') } });
    expect(cache.getQueryData<Channel[]>(settingsKeys.channels)?.map((c) => c.health.status)).toEqual(['DRIFTED', 'HEALTHY']);
    expect(cache.getQueryData(settingsKeys.channelHealth('ch-1'))).toEqual({ ...details, ...brief('DRIFTED') });
    expect(cache.getQueryState(settingsKeys.channelHealth('ch-1'))?.isInvalidated).toBe(true);
    expect(cache.getQueryState(settingsKeys.channelHealth('ch-2'))?.isInvalidated).toBe(false);
    // The list itself is up to date: not fetched again for an event.
    expect(cache.getQueryState(settingsKeys.channels)?.isInvalidated).toBe(false);

    // Events missed while the socket was down: the list (and so every badge) is read again.
    refreshAfterReconnect(cache);
    expect(cache.getQueryState(settingsKeys.channels)?.isInvalidated).toBe(true);
  });

  it('a health change for a channel no screen has loaded leaves the cache empty', () => {
    const cache = new QueryClient();
    applyEvent(cache, {
      type: 'channel_health_changed',
      data: { channelId: 'ch-1', health: { status: 'DRIFTED', checkedAt: null } },
    });
    expect(cache.getQueryData(settingsKeys.channels)).toBeUndefined();
    expect(cache.getQueryData(settingsKeys.channelHealth('ch-1'))).toBeUndefined();
  });
});
