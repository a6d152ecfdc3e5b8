import type { Channel } from '@shared/contract/settings';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { endpoints, json, ok, renderWithProviders, signInAs, stubServer, urlOf } from '@/test-utils';
import { ChannelsPage } from './channels-page';

const base: Channel = {
  id: 'ch-1',
  type: 'PHONE',
  identifier: '+14155550101',
  friendlyName: 'Main line',
  status: 'ACTIVE',
  capabilities: { voice: true, sms: true, mms: true },
  routingType: 'INBOX',
  routingTargetId: 'ib-1',
  routingTarget: { name: 'Support' },
  providerId: 'prov-1',
  createdAt: '2025-01-01T00:00:00.000Z',
  health: { status: 'HEALTHY', checkedAt: '2025-01-01T00:00:00.000Z' },
};
const CHANNELS: Channel[] = [
  base,
  {
    ...base,
    id: 'ch-2',
    identifier: '+14155550102',
    friendlyName: '(415) 555-0102',
    status: 'INACTIVE',
    capabilities: { voice: true, sms: false, mms: false },
    routingType: 'UNASSIGNED',
    routingTargetId: null,
    routingTarget: null,
  },
  {
    ...base,
    id: 'ch-3',
    type: 'EMAIL',
    identifier: 'help@example.com',
    friendlyName: null,
    routingType: 'USER',
    routingTargetId: 'u-9',
    routingTarget: null,
  },
];

const row = (identifier: string) =>
  screen.getByRole('button', { name: `Configure routing for ${identifier}` }).closest('li') as HTMLElement;

beforeEach(() => signInAs('OWNER'));

describe('ChannelsPage', () => {
  it('groups phone numbers and e-mail addresses with readable numbers, names, status, routing and capabilities', async () => {
    stubServer(() => ok({ channels: CHANNELS }));
    renderWithProviders(<ChannelsPage />);
    expect(await screen.findByRole('heading', { name: 'Phone Numbers (2)' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Email Addresses (1)' })).toBeTruthy();
    expect(screen.queryByText(/\+1415/)).toBeNull();

    const first = within(row('(415) 555-0101'));
    expect(first.getByText('(415) 555-0101')).toBeTruthy();
    expect(first.getByText('Main line')).toBeTruthy();
    expect(first.getByText('Active')).toBeTruthy();
    // An inbox and a person are told apart by an icon and, for screen readers, by a word.
    expect(first.getByText('Support').closest('p')?.textContent).toBe('Routing: Team inbox Support');
    expect(first.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Voice', 'SMS', 'MMS']);
    const second = within(row('(415) 555-0102'));
    // Twilio's default name only repeats the number: not shown twice.
    expect(second.queryByText('(415) 555-0102', { selector: 'p.text-sm' })).toBeNull();
    expect(second.getByText('Inactive')).toBeTruthy();
    expect(second.getByText(/its provider was disconnected/).textContent).toBe(
      'Not receiving calls or messages: its provider was disconnected. Import the number again in Settings → Providers to reactivate it; its routing is kept.',
    );
    expect(second.getByRole('link', { name: 'Settings → Providers' }).getAttribute('href')).toBe('/settings/providers');
    expect(second.getByText('Unassigned')).toBeTruthy();
    expect(second.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Voice']);
    const email = within(row('help@example.com'));
    expect(email.getByText('User').closest('p')?.textContent).toBe('Routing: User');
    expect(email.queryByText(/Active|Inactive/)).toBeNull();
  });

  it('routing to a person reads differently from routing to an inbox', async () => {
    stubServer(() =>
      ok({ channels: [{ ...base, routingType: 'USER', routingTargetId: 'u-1', routingTarget: { name: 'Alexandra Stone' } }] }),
    );
    renderWithProviders(<ChannelsPage />);
    const routing = (await screen.findByText('Alexandra Stone')).closest('p') as HTMLElement;
    expect(routing.textContent).toBe('Routing: User Alexandra Stone');
    expect(routing.querySelectorAll('svg')).toHaveLength(2);
  });

  it('the edit button opens Configure Routing for that channel, showing the number as people read it', async () => {
    stubServer((r) => (r.url === urlOf(endpoints.listChannels) ? ok({ channels: CHANNELS }) : ok({ inboxes: [], users: [] })));
    const events = userEvent.setup();
    renderWithProviders(<ChannelsPage />);
    await events.click(await screen.findByRole('button', { name: 'Configure routing for (415) 555-0101' }));
    const dialog = screen.getByRole('dialog', { name: 'Configure Routing' });
    expect(within(dialog).getByText('(415) 555-0101')).toBeTruthy();
    expect(within(dialog).getByText(/\(Main line\) go\./)).toBeTruthy();
  });

  it('no channels, or a failed list (only logged): No channels yet', async () => {
    stubServer(() => ok({ channels: [] }));
    const first = renderWithProviders(<ChannelsPage />);
    expect(await screen.findByText('No channels yet')).toBeTruthy();
    first.unmount();

    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    stubServer(() => json(500, {}));
    renderWithProviders(<ChannelsPage />);
    expect(await screen.findByText('No channels yet')).toBeTruthy();
    await waitFor(() => expect(logged).toHaveBeenCalled());
  });
});

describe('ChannelsPage for an agent', () => {
  beforeEach(() => signInAs('AGENT'));

  it('shows every channel and its routing without the edit buttons, and says why', async () => {
    stubServer(() => ok({ channels: CHANNELS }));
    renderWithProviders(<ChannelsPage />);
    expect(await screen.findByText('(415) 555-0101')).toBeTruthy();
    expect(screen.getByText('help@example.com')).toBeTruthy();
    expect(screen.getByText('Only the owner and admins can change these settings.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Configure routing for/ })).toBeNull();
  });
});
