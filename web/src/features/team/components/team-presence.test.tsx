import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TeamUser } from '../../../../../shared/contract/settings';
import { realtimeKeys } from '../../../lib/realtime/event-cache';
import { ok, renderWithProviders, stubServer } from '../../../test-utils';
import { TeamPage } from './team-page';

const USERS: TeamUser[] = [
  { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com', role: 'OWNER', avatarUrl: null, lastActiveAt: null },
  { id: 'u2', name: 'Grace Hopper', email: 'grace@example.com', role: 'AGENT', avatarUrl: null, lastActiveAt: null },
];

describe('TeamPage presence', () => {
  it('marks the users who are online now, and follows them as they come and go', async () => {
    stubServer(() => ok({ users: USERS }));
    const { queryClient } = renderWithProviders(<TeamPage />);
    await screen.findByText('Grace Hopper');
    const row = (name: string) => screen.getByRole('row', { name: new RegExp(name) });
    expect(within(row('Grace Hopper')).queryByText('Online')).toBeNull();

    const since = new Date().toISOString();
    act(() => queryClient.setQueryData(realtimeKeys.presence, [{ id: 'u2', name: 'Grace Hopper', since }]));
    expect(await within(row('Grace Hopper')).findByText('Online')).toBeTruthy();
    expect(within(row('Ada Lovelace')).queryByText('Online')).toBeNull();

    act(() => queryClient.setQueryData(realtimeKeys.presence, []));
    await waitFor(() => expect(within(row('Grace Hopper')).queryByText('Online')).toBeNull());
  });
});
