import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TeamUser } from '../../../../../shared/contract/settings';
import { fail, json, ok, renderWithProviders, stubServer } from '../../../test-utils';
import { roleTone } from './role-badge';
import { TeamPage } from './team-page';

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

const USERS: TeamUser[] = [
  { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com', role: 'OWNER', avatarUrl: null, lastActiveAt: minutesAgo(5) },
  {
    id: 'u2',
    name: 'Grace Hopper',
    email: 'grace@example.com',
    role: 'AGENT',
    avatarUrl: 'https://example.com/grace.png',
    lastActiveAt: null,
  },
];

describe('TeamPage', () => {
  it('lists users with avatar or initial, role badge, last active and a disabled Edit; counts them', async () => {
    stubServer(() => ok({ users: USERS }));
    renderWithProviders(<TeamPage />);
    await screen.findByText('Ada Lovelace');

    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['User', 'Role', 'Last Active', 'Actions']);
    const ada = screen.getByRole('row', { name: /Ada Lovelace/ });
    expect(within(ada).getByText('OWNER')).toBeTruthy();
    expect(within(ada).getByText('A')).toBeTruthy();
    expect(within(ada).getAllByText(/5m ago/).length).toBeGreaterThan(0);
    const grace = screen.getByRole('row', { name: /Grace Hopper/ });
    expect(grace.querySelector('img')?.getAttribute('src')).toBe('https://example.com/grace.png');
    expect(within(grace).getAllByText(/Never/).length).toBeGreaterThan(0);
    for (const name of ['Edit Ada Lovelace', 'Edit Grace Hopper', 'Invite Member']) {
      expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(true);
    }
    expect(screen.getByText('Showing 2 team members')).toBeTruthy();
  });

  it('says Showing 1 team member for one', async () => {
    stubServer(() => ok({ users: USERS.slice(0, 1) }));
    renderWithProviders(<TeamPage />);
    expect(await screen.findByText('Showing 1 team member')).toBeTruthy();
  });

  it('shows No team members found when empty', async () => {
    stubServer(() => ok({ users: [] }));
    renderWithProviders(<TeamPage />);
    expect(await screen.findByText('No team members found')).toBeTruthy();
    expect(screen.queryByText(/^Showing/)).toBeNull();
  });

  it('a failed load shows the server message, else Failed to load team members', async () => {
    stubServer(() => fail(403, 'Not allowed here', 'FORBIDDEN'));
    const first = renderWithProviders(<TeamPage />);
    expect((await screen.findByRole('alert')).textContent).toBe('Not allowed here');
    first.unmount();

    stubServer(() => json(500, {}));
    renderWithProviders(<TeamPage />);
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load team members');
  });

  it('role colours: OWNER purple, ADMIN blue, AGENT green, anything else grey', () => {
    expect(['OWNER', 'ADMIN', 'AGENT', 'SUPERVISOR'].map(roleTone)).toEqual(['purple', 'blue', 'green', 'neutral']);
  });
});
