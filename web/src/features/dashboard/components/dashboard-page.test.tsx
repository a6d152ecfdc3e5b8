import type { Call } from '@shared/contract/calls';
import type { Channel } from '@shared/contract/settings';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyEvent } from '@/lib/realtime/event-cache';
import { session } from '@/lib/services';
import {
  deferred,
  endpoints,
  isCall,
  json,
  ok,
  renderWithProviders,
  sampleCompany,
  sampleUser,
  stubServer,
  urlOf,
} from '@/test-utils';
import { DashboardPage } from './dashboard-page';

const channel = (id: string, status: Channel['status'], health: Channel['health']['status'] = 'HEALTHY') => ({
  id,
  type: 'PHONE',
  identifier: `+1415555010${id.length}`,
  status,
  health: { status: health, checkedAt: health === 'UNCHECKED' ? null : '2026-01-01T00:00:00.000Z' },
});
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
      if (r.url === urlOf(endpoints.listChannels)) return channels.promise;
      if (r.url.startsWith(urlOf(endpoints.listConversations)))
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
    expect(requests.map((r) => r.url)).toContain(urlOf(endpoints.listConversations, {}, { status: 'OPEN', limit: '1' }));

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

describe('DashboardPage, new voicemails', () => {
  const voicemail = (id: string, listened: boolean) => ({
    id,
    voicemail: {
      durationSeconds: 5,
      url: urlOf(endpoints.voicemailAudio, { id }),
      createdAt: '2026-01-01T10:00:00.000Z',
      listened,
    },
  });

  it('counts the voicemails nobody has played, from the Voicemail filter, and leads to it in Call History', async () => {
    const requests = stubServer((r) =>
      r.url.startsWith(urlOf(endpoints.listCalls))
        ? ok({ calls: [voicemail('a', false), voicemail('b', true), voicemail('c', false)] })
        : ok({ users: [], channels: [], conversations: [], total: 0 }),
    );
    renderWithProviders(<DashboardPage />);
    await waitFor(() => expect(screen.getByText('New Voicemails').nextElementSibling?.textContent).toBe('2'));
    const asked = requests.find((r) => isCall(r, endpoints.listCalls) && r.url.includes('?'))?.url ?? '';
    expect(Object.fromEntries(new URL(asked, 'http://x').searchParams)).toEqual({ voicemail: 'true', limit: '100' });
    expect(screen.getByRole('link', { name: 'Listen in Call History' }).getAttribute('href')).toBe('/calls?voicemail=true');
  });

  it('is read again when a voicemail arrives', async () => {
    let calls = [voicemail('a', false)];
    stubServer((r) => (r.url.startsWith(urlOf(endpoints.listCalls)) ? ok({ calls }) : ok({ users: [], channels: [], total: 0 })));
    const { queryClient } = renderWithProviders(<DashboardPage />);
    const figure = () => screen.getByText('New Voicemails').nextElementSibling?.textContent;
    await waitFor(() => expect(figure()).toBe('1'));
    calls = [voicemail('b', false), ...calls];
    const call = { ...calls[0], direction: 'INBOUND' } as unknown as Call;
    act(() => applyEvent(queryClient, { type: 'voicemail_received', data: { callId: 'b', call } }));
    await waitFor(() => expect(figure()).toBe('2'));
  });
});

describe('DashboardPage, Getting Started', () => {
  const step = (title: string) => screen.getByText(title).closest('a') as HTMLElement;

  it('ticks the steps that are done, from real data, and leaves the others numbered', async () => {
    stubServer((r) => {
      if (r.url === urlOf(endpoints.listProviders)) return ok({ providers: [{ id: 'p1' }] });
      if (r.url === urlOf(endpoints.listInboxes)) return ok({ inboxes: [] });
      if (r.url === urlOf(endpoints.listUsers)) return ok({ users: [{ id: 'u1' }, { id: 'u2' }] });
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
      r.url === urlOf(endpoints.listUsers)
        ? ok({ users: [{ id: 'u1' }] })
        : ok({ providers: [], inboxes: [], channels: [], total: 0 }),
    );
    renderWithProviders(<DashboardPage />);
    await waitFor(() => expect(counter('Team Members').textContent).toBe('Team Members1'));
    expect(screen.queryByText('Done')).toBeNull();
    expect(document.title).toBe('Dashboard · Switchboard');
  });
});

describe('DashboardPage, Getting Started once every step is done', () => {
  const allDone = () =>
    stubServer((r) => {
      if (r.url === urlOf(endpoints.listProviders)) return ok({ providers: [{ id: 'p1' }] });
      if (r.url === urlOf(endpoints.listInboxes)) return ok({ inboxes: [{ id: 'i1' }] });
      if (r.url === urlOf(endpoints.listUsers)) return ok({ users: [{ id: 'u1' }, { id: 'u2' }] });
      return ok({ channels: [], total: 0 });
    });
  const dismissButton = () => screen.queryByRole('button', { name: 'Dismiss Getting Started' });
  afterEach(() => window.localStorage.clear());

  it('cannot be dismissed while a step is still open', async () => {
    stubServer((r) =>
      r.url === urlOf(endpoints.listUsers) ? ok({ users: [{ id: 'u1' }, { id: 'u2' }] }) : ok({ providers: [], inboxes: [] }),
    );
    renderWithProviders(<DashboardPage />);
    await waitFor(() => expect(screen.getByText('Invite team members').closest('a')?.textContent).toContain('Done'));
    expect(dismissButton()).toBeNull();
  });

  it('can be dismissed, and stays dismissed for that user after a reload, but not for another user', async () => {
    allDone();
    const events = userEvent.setup();
    const first = renderWithProviders(<DashboardPage />);
    await events.click(await screen.findByRole('button', { name: 'Dismiss Getting Started' }));
    expect(screen.queryByRole('heading', { name: 'Getting Started' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: `Welcome, ${sampleUser.name}` }));
    first.unmount();

    // A reload: a new page, the same browser's storage.
    const again = renderWithProviders(<DashboardPage />);
    await waitFor(() => expect(counter('Team Members').textContent).toBe('Team Members2'));
    expect(screen.queryByRole('heading', { name: 'Getting Started' })).toBeNull();
    again.unmount();

    // Someone else signs in on this browser: theirs is still there, theirs to dismiss.
    session.signIn({
      user: { ...sampleUser, id: 'someone-else', name: 'Grace Hopper' },
      company: sampleCompany,
      tokens: { accessToken: 'a', refreshToken: 'r' },
    });
    renderWithProviders(<DashboardPage />);
    expect(await screen.findByRole('heading', { name: 'Getting Started' })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Dismiss Getting Started' })).toBeTruthy();
  });
});

describe('DashboardPage, channel health', () => {
  const serve = (channels: unknown[]) =>
    stubServer((r) =>
      r.url === urlOf(endpoints.listChannels) ? ok({ channels }) : ok({ users: [], providers: [], inboxes: [], total: 0 }),
    );

  it('warns, by number and in words, when a number in use is not healthy, and leads to Channels', async () => {
    serve([
      { ...channel('a', 'ACTIVE', 'DRIFTED'), identifier: '+14155550101' },
      { ...channel('bb', 'ACTIVE', 'CREDENTIALS_REFUSED'), identifier: '+14155550102' },
      { ...channel('ccc', 'ACTIVE'), identifier: '+14155550103' },
    ]);
    renderWithProviders(<DashboardPage />);
    const warning = await screen.findByText(/need attention/);
    expect(warning.textContent).toBe('2 phone numbers need attention: calls or texts may not reach you.');
    const region = warning.closest('[role="status"]') as HTMLElement;
    expect([...region.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      '(415) 555-0101: Drifted',
      '(415) 555-0102: Credentials refused',
    ]);
    expect(screen.getByRole('link', { name: 'Check and repair in Channels' }).getAttribute('href')).toBe('/settings/channels');
  });

  it('says nothing while every number in use is healthy or not checked yet, or when only an inactive one is not', async () => {
    serve([
      channel('a', 'ACTIVE'),
      channel('bb', 'ACTIVE', 'UNCHECKED'),
      channel('ccc', 'INACTIVE', 'NUMBER_GONE'),
      { ...channel('dddd', 'ACTIVE', 'PROVIDER_UNREACHABLE'), type: 'EMAIL', identifier: 'help@example.com' },
    ]);
    renderWithProviders(<DashboardPage />);
    await waitFor(() => expect(counter('Connected Channels').textContent).toBe('Connected Channels3'));
    expect(screen.queryByText(/need attention|needs attention/)).toBeNull();
    expect(screen.queryByRole('link', { name: 'Check and repair in Channels' })).toBeNull();
  });

  it('one number: said in the singular', async () => {
    serve([{ ...channel('a', 'ACTIVE', 'NUMBER_GONE'), identifier: '+14155550101' }]);
    renderWithProviders(<DashboardPage />);
    expect((await screen.findByText(/needs attention/)).textContent).toBe(
      'A phone number needs attention: calls or texts may not reach you.',
    );
    expect(screen.getByText(/Number gone/).textContent).toBe('(415) 555-0101: Number gone');
  });
});
