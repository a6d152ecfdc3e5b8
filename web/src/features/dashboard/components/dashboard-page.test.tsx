import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Channel } from '../../../../../shared/contract/settings';
import { session } from '../../../lib/services';
import { deferred, json, ok, renderWithProviders, sampleCompany, sampleUser, stubServer } from '../../../test-utils';
import { DashboardPage } from './dashboard-page';

const channel = (id: string, status: Channel['status']) => ({ id, status });
const counter = (label: string) => screen.getByText(label).parentElement as HTMLElement;

beforeEach(() => {
  session.signIn({
    user: sampleUser,
    company: sampleCompany,
    tokens: { accessToken: 'a', refreshToken: 'r' },
  });
});
afterEach(() => session.clear());

describe('DashboardPage counters', () => {
  it('show SPEC values while loading, then the open conversations, the ACTIVE channels and the users', async () => {
    const channels = deferred();
    const requests = stubServer((r) => {
      if (r.url === '/api/v1/channels') return channels.promise;
      if (r.url.startsWith('/api/v1/conversations'))
        return ok({ conversations: [], total: 7, pagination: { total: 7, limit: 1, offset: 0, nextCursor: 'x' } });
      return ok({ users: [{ id: 'u1' }, { id: 'u2' }, { id: 'u3' }] });
    });
    renderWithProviders(<DashboardPage />);
    expect(counter('Active Conversations').textContent).toBe('Active Conversations0');
    expect(counter('Connected Channels').textContent).toBe('Connected Channels0');
    expect(counter('Connected Channels').getAttribute('aria-busy')).toBe('true');
    await waitFor(() => expect(counter('Team Members').textContent).toBe('Team Members3'));
    await waitFor(() => expect(counter('Active Conversations').textContent).toBe('Active Conversations7'));
    // The total comes from a page of one: the count, not the list.
    expect(requests.map((r) => r.url)).toContain('/api/v1/conversations?status=OPEN&limit=1');

    channels.release(ok({ channels: [channel('a', 'ACTIVE'), channel('b', 'INACTIVE'), channel('c', 'ACTIVE')] }));
    await waitFor(() => expect(counter('Connected Channels').textContent).toBe('Connected Channels2'));
    expect(counter('Connected Channels').getAttribute('aria-busy')).toBeNull();
  });

  it('a figure that cannot load shows a dash, not a made-up number', async () => {
    stubServer(() => json(500, {}));
    renderWithProviders(<DashboardPage />);
    await waitFor(() => expect(counter('Team Members').textContent).toBe('Team Members—Unavailable'));
    expect(counter('Connected Channels').textContent).toBe('Connected Channels—Unavailable');
  });
});

describe('DashboardPage, Getting Started', () => {
  const step = (title: string) => screen.getByText(title).closest('a') as HTMLElement;

  it('ticks the steps that are done, from real data, and leaves the others numbered', async () => {
    stubServer((r) => {
      if (r.url === '/api/v1/providers') return ok({ providers: [{ id: 'p1' }] });
      if (r.url === '/api/v1/inboxes') return ok({ inboxes: [] });
      if (r.url === '/api/v1/users') return ok({ users: [{ id: 'u1' }, { id: 'u2' }] });
      return ok({ channels: [], total: 0 });
    });
    renderWithProviders(<DashboardPage />);
    await waitFor(() => expect(step('Connect a provider').textContent).toContain('Done'));
    await waitFor(() => expect(step('Invite team members').textContent).toContain('Done'));
    expect(step('Create an inbox').textContent).not.toContain('Done');
    expect(step('Create an inbox').textContent?.startsWith('2')).toBe(true);
    expect(step('Connect a provider').textContent?.startsWith('1')).toBe(false);
  });

  it('a lone user with nothing set up has no step done, and the tab is named after the page', async () => {
    stubServer((r) =>
      r.url === '/api/v1/users' ? ok({ users: [{ id: 'u1' }] }) : ok({ providers: [], inboxes: [], channels: [], total: 0 }),
    );
    renderWithProviders(<DashboardPage />);
    await waitFor(() => expect(counter('Team Members').textContent).toBe('Team Members1'));
    expect(screen.queryByText('Done')).toBeNull();
    expect(document.title).toBe('Dashboard · Switchboard');
  });
});
