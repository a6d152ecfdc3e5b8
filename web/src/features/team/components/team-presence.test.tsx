import type { TeamUser } from '@shared/contract/settings';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyEvent, realtimeKeys } from '@/lib/realtime/event-cache';
import { ok, renderWithProviders, stubServer } from '@/test-utils';
import { TeamPage } from './team-page';

const USERS: TeamUser[] = [
  { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com', role: 'OWNER', avatarUrl: null, lastActiveAt: null },
  { id: 'u2', name: 'Grace Hopper', email: 'grace@example.com', role: 'AGENT', avatarUrl: null, lastActiveAt: null },
];

const row = (name: string) => screen.getByRole('row', { name: new RegExp(name) });
/** The Last Active cell of a person's row, as it reads at the desktop size (the phone's prefix hidden). */
const lastActive = (name: string) => within(row(name)).getAllByRole('cell')[2]?.textContent?.replace('Last active: ', '');

afterEach(() => {
  vi.useRealTimers();
});

describe('TeamPage presence', () => {
  it('says Online for the users who are online now, and follows them as they come and go', async () => {
    stubServer(() => ok({ users: USERS }));
    const { queryClient } = renderWithProviders(<TeamPage />);
    await screen.findByText('Grace Hopper');
    expect(lastActive('Grace Hopper')).toBe('Never');

    const since = new Date().toISOString();
    act(() => queryClient.setQueryData(realtimeKeys.presence, [{ id: 'u2', name: 'Grace Hopper', since }]));
    await waitFor(() => expect(lastActive('Grace Hopper')).toBe('Online'));
    expect(lastActive('Ada Lovelace')).toBe('Never');
    // Said once per row, in words; the dot on the avatar is decoration.
    expect(within(row('Grace Hopper')).getAllByText('Online')).toHaveLength(1);

    act(() => queryClient.setQueryData(realtimeKeys.presence, []));
    await waitFor(() => expect(lastActive('Grace Hopper')).toBe('Never'));
  });

  it('ages the relative time while the page stays open', async () => {
    vi.useFakeTimers({ now: new Date('2026-03-01T10:00:00Z'), shouldAdvanceTime: true });
    const users = [{ ...(USERS[1] as (typeof USERS)[number]), lastActiveAt: '2026-03-01T09:59:30Z' }];
    stubServer(() => ok({ users }));
    renderWithProviders(<TeamPage />);
    await screen.findByText('Grace Hopper');
    expect(lastActive('Grace Hopper')).toBe('Just now');
    act(() => vi.advanceTimersByTime(60_000));
    expect(lastActive('Grace Hopper')).toBe('1m ago');
    act(() => vi.advanceTimersByTime(60 * 60_000));
    expect(lastActive('Grace Hopper')).toBe('1h ago');
  });

  it('says Phone ready for a member whose phone can take calls, Phone offline otherwise, and follows the changes', async () => {
    stubServer(() =>
      ok({
        users: [
          { ...USERS[0], phoneReady: true },
          { ...USERS[1], phoneReady: false },
        ],
      }),
    );
    const { queryClient } = renderWithProviders(<TeamPage />);
    await screen.findByText('Grace Hopper');
    expect(within(row('Ada Lovelace')).getByText('Phone ready')).toBeTruthy();
    expect(within(row('Grace Hopper')).getByText('Phone offline')).toBeTruthy();

    act(() => applyEvent(queryClient, { type: 'phone_status_changed', data: { userId: 'u2', phoneReady: true } }));
    await waitFor(() => expect(within(row('Grace Hopper')).getByText('Phone ready')).toBeTruthy());
    act(() => applyEvent(queryClient, { type: 'phone_status_changed', data: { userId: 'u1', phoneReady: false } }));
    await waitFor(() => expect(within(row('Ada Lovelace')).getByText('Phone offline')).toBeTruthy());
  });
});
