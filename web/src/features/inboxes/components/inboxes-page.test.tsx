import type { Channel, Inbox, InboxDetail, TeamUser } from '@shared/contract/settings';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  callLine,
  endpoints,
  fail,
  json,
  ok,
  type Recorded,
  renderWithProviders,
  signInAs,
  stubServer,
  urlOf,
} from '@/test-utils';
import { InboxesPage } from './inboxes-page';

const SUPPORT: Inbox = {
  id: 'ib-1',
  name: 'Support',
  description: 'Customer questions',
  memberCount: 1,
  channelCount: 2,
  createdAt: '2025-03-04T10:00:00.000Z',
  recordCalls: false,
};
const SALES: Inbox = { ...SUPPORT, id: 'ib-2', name: 'Sales', description: null, memberCount: 3, channelCount: 1 };
const USERS: TeamUser[] = [
  { id: 'u-1', name: 'Ada Lovelace', email: 'ada@example.com', role: 'OWNER', avatarUrl: null, lastActiveAt: null },
  { id: 'u-2', name: 'Grace Hopper', email: 'grace@example.com', role: 'AGENT', avatarUrl: null, lastActiveAt: null },
];
const detail = (userIds: string[]): InboxDetail => ({
  ...SUPPORT,
  memberCount: userIds.length,
  members: USERS.filter((u) => userIds.includes(u.id)).map((u) => ({
    id: `m-${u.id}`,
    userId: u.id,
    user: { name: u.name, email: u.email },
    phoneReady: u.id === 'u-1',
  })),
});

const posts = (requests: Recorded[]) => requests.filter((r) => r.method !== 'GET');

beforeEach(() => signInAs('OWNER'));

describe('InboxesPage', () => {
  it('lists inboxes with description, member link, channel count and created date', async () => {
    stubServer(() => ok({ inboxes: [SUPPORT, SALES] }));
    renderWithProviders(<InboxesPage />);
    const support = (await screen.findByRole('heading', { name: 'Support' })).closest('li') as HTMLElement;
    expect(within(support).getByText('Customer questions')).toBeTruthy();
    expect(within(support).getByRole('button', { name: /1 member$/ })).toBeTruthy();
    expect(within(support).getByText('2 channels connected')).toBeTruthy();
    expect(within(support).getByText(/^Created /)).toBeTruthy();
    expect(within(support).getByRole('button', { name: 'Configure call routing for Support' })).toBeTruthy();
    expect(within(support).getByRole('button', { name: 'Delete Support' })).toBeTruthy();
    const sales = screen.getByRole('heading', { name: 'Sales' }).closest('li') as HTMLElement;
    expect(within(sales).getByRole('button', { name: /3 members$/ })).toBeTruthy();
    expect(within(sales).getByText('1 channel connected')).toBeTruthy();
  });

  it('empty: No inboxes yet', async () => {
    stubServer(() => ok({ inboxes: [] }));
    renderWithProviders(<InboxesPage />);
    expect(await screen.findByText('No inboxes yet')).toBeTruthy();
  });

  it('Create Inbox requires a name, sends name and description, shows a server error inline and keeps the input', async () => {
    let answer: Response = fail(400, 'Inbox name must be at most 100 characters');
    const requests = stubServer((r) => (r.method === 'POST' ? answer : ok({ inboxes: [] })));
    const events = userEvent.setup();
    renderWithProviders(<InboxesPage />);
    await events.click(await screen.findByRole('button', { name: 'Create Inbox' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Inbox' });
    const name = within(dialog).getByLabelText(/Inbox Name/) as HTMLInputElement;
    const description = within(dialog).getByLabelText(/Description/);
    expect(description.tagName).toBe('TEXTAREA');

    await events.click(within(dialog).getByRole('button', { name: 'Create Inbox' }));
    expect(within(dialog).getByText('Inbox name is required')).toBeTruthy();
    expect(document.activeElement).toBe(name);
    expect(posts(requests)).toEqual([]);

    await events.type(name, '  Support ');
    await events.type(description, 'Questions');
    await events.click(within(dialog).getByRole('button', { name: 'Create Inbox' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Inbox name must be at most 100 characters');
    expect(posts(requests)).toEqual([
      { url: urlOf(endpoints.createInbox), method: 'POST', body: { name: 'Support', description: 'Questions' } },
    ]);
    expect(name.value).toBe('  Support ');

    answer = json(500, {});
    await events.click(within(dialog).getByRole('button', { name: 'Create Inbox' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe('Failed to create inbox'));

    answer = ok({ inbox: SUPPORT }, 201);
    await events.click(within(dialog).getByRole('button', { name: 'Create Inbox' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('Record calls: a manager turns it on (the switch disabled while saving), a failure is shown, an agent reads it', async () => {
    let recording = false;
    let answer: () => Response = () => json(500, {});
    const requests = stubServer((r) => {
      if (r.method !== 'PATCH') return ok({ inboxes: [{ ...SUPPORT, recordCalls: recording }] });
      return answer();
    });
    const events = userEvent.setup();
    const { unmount } = renderWithProviders(<InboxesPage />);
    const toggle = () => screen.getByRole('switch', { name: 'Record calls to Support' }) as HTMLInputElement;
    expect((await screen.findByRole('switch', { name: 'Record calls to Support' })).getAttribute('aria-checked')).toBe('false');
    await events.click(toggle());
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to change call recording');
    expect(toggle().checked).toBe(false);

    answer = () => {
      recording = true;
      return ok({ inbox: { ...SUPPORT, recordCalls: true } });
    };
    await events.click(toggle());
    await waitFor(() => expect(screen.getByText('Calls are recorded')).toBeTruthy());
    expect(toggle().checked).toBe(true);
    expect(posts(requests).map((r) => [`${r.method} ${r.url}`, r.body])).toEqual([
      [callLine(endpoints.setInboxRecording, { id: 'ib-1' }), { enabled: true }],
      [callLine(endpoints.setInboxRecording, { id: 'ib-1' }), { enabled: true }],
    ]);
    unmount();

    signInAs('AGENT');
    renderWithProviders(<InboxesPage />);
    expect(await screen.findByText('Calls are recorded')).toBeTruthy();
    expect(screen.queryByRole('switch')).toBeNull();
  });

  it('delete asks with the SPEC sentence; a failure shows Failed to delete inbox', async () => {
    let answer: Response = json(500, {});
    const requests = stubServer((r) => (r.method === 'DELETE' ? answer : ok({ inboxes: [SUPPORT] })));
    const events = userEvent.setup();
    renderWithProviders(<InboxesPage />);
    await events.click(await screen.findByRole('button', { name: 'Delete Support' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete Support?' });
    expect(within(confirm).getByText('Are you sure you want to delete this inbox? This action cannot be undone.')).toBeTruthy();
    await events.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect((await within(confirm).findByRole('alert')).textContent).toBe('Failed to delete inbox');
    answer = ok({ inbox: SUPPORT });
    await events.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(posts(requests).map((r) => `${r.method} ${r.url}`)).toEqual([
      callLine(endpoints.deleteInbox, { id: 'ib-1' }),
      callLine(endpoints.deleteInbox, { id: 'ib-1' }),
    ]);
  });

  it('the delete confirmation names the channels that become unassigned, after the SPEC sentence', async () => {
    const routed = (id: string, identifier: string, friendlyName: string | null, inbox: string): Channel => ({
      id,
      type: 'PHONE',
      identifier,
      friendlyName,
      status: 'ACTIVE',
      capabilities: { voice: true, sms: true, mms: false },
      routingType: 'INBOX',
      routingTargetId: inbox,
      routingTarget: { name: 'x' },
      providerId: 'p',
      createdAt: SUPPORT.createdAt,
      health: { status: 'HEALTHY', checkedAt: SUPPORT.createdAt },
    });
    stubServer((r) =>
      r.url === urlOf(endpoints.listChannels)
        ? ok({
            channels: [
              routed('c1', '+14155550101', 'Main line', 'ib-1'),
              routed('c2', '+442079460958', null, 'ib-1'),
              routed('c3', '+14155550103', 'Voice line', 'ib-2'),
            ],
          })
        : ok({ inboxes: [SUPPORT, SALES] }),
    );
    const events = userEvent.setup();
    renderWithProviders(<InboxesPage />);
    await events.click(await screen.findByRole('button', { name: 'Delete Support' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete Support?' });
    const sentence = within(confirm).getByText('Are you sure you want to delete this inbox? This action cannot be undone.');
    const intro = await within(confirm).findByText('These 2 channels become unassigned:');
    expect(sentence.compareDocumentPosition(intro) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(
      within(confirm)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['(415) 555-0101 (Main line)', '+44 20 7946 0958']);

    await events.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await events.click(screen.getByRole('button', { name: 'Delete Sales' }));
    const other = screen.getByRole('alertdialog', { name: 'Delete Sales?' });
    expect(await within(other).findByText('This channel becomes unassigned:')).toBeTruthy();
  });

  it('keeps the line breaks of a multi-line description', async () => {
    stubServer(() => ok({ inboxes: [{ ...SUPPORT, description: 'Orders\nReturns' }] }));
    renderWithProviders(<InboxesPage />);
    const description = await screen.findByText(/Orders/);
    expect(description.textContent).toBe('Orders\nReturns');
    expect(description.className).toContain('whitespace-pre-line');
  });

  it('a name already taken is refused by the server and shown under Inbox Name', async () => {
    const message = 'An inbox named Support already exists.';
    stubServer((r) =>
      r.method === 'POST'
        ? json(409, { success: false, error: { code: 'CONFLICT', message, details: { fields: { name: message } } } })
        : ok({ inboxes: [SUPPORT] }),
    );
    const events = userEvent.setup();
    renderWithProviders(<InboxesPage />);
    await events.click(await screen.findByRole('button', { name: 'Create Inbox' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Inbox' });
    const name = within(dialog).getByLabelText(/Inbox Name/);
    await events.type(name, 'support');
    await events.click(within(dialog).getByRole('button', { name: 'Create Inbox' }));
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(document.getElementById(name.getAttribute('aria-describedby') ?? '')?.textContent).toBe(message);
  });

  it('call routing: Ring All Users chosen, voicemail disabled; saves RING_ALL and shows the inline fallback on failure', async () => {
    let answer: Response = json(500, {});
    const requests = stubServer((r) => {
      if (r.method === 'POST') return answer;
      if (r.url.endsWith('/routing')) return ok({ strategies: [{ channelType: 'PHONE', strategyType: 'RING_ALL', config: {} }] });
      return ok({ inboxes: [SUPPORT] });
    });
    const events = userEvent.setup();
    renderWithProviders(<InboxesPage />);
    await events.click(await screen.findByRole('button', { name: 'Configure call routing for Support' }));
    const dialog = screen.getByRole('dialog', { name: 'Call Routing' });
    const ringAll = (await within(dialog).findByRole('radio', { name: 'Ring All Users' })) as HTMLInputElement;
    expect(ringAll.checked).toBe(true);
    expect(
      within(dialog).getByText('Ring all assigned users at once in their browsers; the first to answer gets the call.'),
    ).toBeTruthy();
    expect((within(dialog).getByRole('radio', { name: 'Send to Voicemail' }) as HTMLInputElement).disabled).toBe(true);
    expect(within(dialog).getByText('Coming Soon')).toBeTruthy();

    await events.click(within(dialog).getByRole('button', { name: 'Save Routing' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Failed to save routing strategy');
    answer = ok({ strategy: { channelType: 'PHONE', strategyType: 'RING_ALL', config: {} } });
    await events.click(within(dialog).getByRole('button', { name: 'Save Routing' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(requests).at(-1)).toEqual({
      url: urlOf(endpoints.saveInboxRouting, { id: 'ib-1' }),
      method: 'POST',
      body: { channelType: 'PHONE', strategyType: 'RING_ALL', config: {} },
    });
  });
});

describe('Manage Members', () => {
  function server(options: { members: string[]; failAdd?: boolean; failDetail?: boolean; failRemove?: boolean }) {
    const state = { members: [...options.members] };
    const requests = stubServer((r) => {
      if (r.url === urlOf(endpoints.listInboxes)) return ok({ inboxes: [{ ...SUPPORT, memberCount: state.members.length }] });
      if (r.url === urlOf(endpoints.listUsers)) return ok({ users: USERS });
      if (r.url === urlOf(endpoints.getInbox, { id: 'ib-1' }))
        return options.failDetail ? json(500, {}) : ok({ inbox: detail(state.members) });
      if (r.url === urlOf(endpoints.addInboxMember, { id: 'ib-1' }) && r.method === 'POST') {
        if (options.failAdd) return json(500, {});
        const { userId } = r.body as { userId: string };
        state.members.push(userId);
        return ok({ member: detail(state.members).members.at(-1) }, 201);
      }
      const removed = /\/members\/(.+)$/.exec(r.url)?.[1];
      if (removed && r.method === 'DELETE') {
        if (options.failRemove) return json(500, {});
        state.members = state.members.filter((id) => id !== removed);
        return ok({ member: { id: `m-${removed}`, userId: removed, user: { name: '', email: '' } } });
      }
      return json(404, {});
    });
    return requests;
  }

  async function open() {
    const events = userEvent.setup();
    renderWithProviders(<InboxesPage />);
    await events.click(await screen.findByRole('button', { name: /^Manage members of Support/ }));
    return { events, dialog: screen.getByRole('dialog', { name: 'Manage Members' }) };
  }

  it('shows current members and the users to add; adding moves a user across', async () => {
    const requests = server({ members: ['u-1'] });
    const { events, dialog } = await open();
    expect(await within(dialog).findByText('Current Members (1)')).toBeTruthy();
    expect(await within(dialog).findByText('Add Members (1 available)')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Remove Ada Lovelace' })).toBeTruthy();
    await events.click(within(dialog).getByRole('button', { name: 'Add Grace Hopper' }));
    expect(await within(dialog).findByText('Current Members (2)')).toBeTruthy();
    expect(await within(dialog).findByText('All users are already members of this inbox.')).toBeTruthy();
    expect(requests.find((r) => r.method === 'POST')).toEqual({
      url: urlOf(endpoints.addInboxMember, { id: 'ib-1' }),
      method: 'POST',
      body: { userId: 'u-2' },
    });
    await events.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says which members can take a call now: Phone ready or Phone offline', async () => {
    server({ members: ['u-1', 'u-2'] });
    const { dialog } = await open();
    const current = within(await within(dialog).findByRole('region', { name: 'Current Members (2)' }));
    const item = (name: string) => current.getByText(name).closest('li') as HTMLElement;
    expect(within(item('Ada Lovelace')).getByText('Phone ready')).toBeTruthy();
    expect(within(item('Grace Hopper')).getByText('Phone offline')).toBeTruthy();
  });

  it('removing asks first with the SPEC sentence; no members shows its empty text', async () => {
    const requests = server({ members: ['u-2'] });
    const { events, dialog } = await open();
    await events.click(await within(dialog).findByRole('button', { name: 'Remove Grace Hopper' }));
    const confirm = screen.getByRole('alertdialog');
    expect(within(confirm).getByText('Are you sure you want to remove this member from the inbox?')).toBeTruthy();
    await events.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByText('No members yet. Add users to this inbox.')).toBeTruthy();
    expect(await within(dialog).findByText('Add Members (2 available)')).toBeTruthy();
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([
      urlOf(endpoints.removeInboxMember, { id: 'ib-1', userId: 'u-2' }),
    ]);
  });

  it('a failed add shows Failed to add member', async () => {
    server({ members: [], failAdd: true });
    const { events, dialog } = await open();
    await events.click(await within(dialog).findByRole('button', { name: 'Add Ada Lovelace' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Failed to add member');
  });

  it('a failed removal shows Failed to remove member in the confirmation', async () => {
    server({ members: ['u-1'], failRemove: true });
    const { events, dialog } = await open();
    await events.click(await within(dialog).findByRole('button', { name: 'Remove Ada Lovelace' }));
    const confirm = screen.getByRole('alertdialog');
    await events.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect((await within(confirm).findByRole('alert')).textContent).toBe('Failed to remove member');
  });

  it('a failed member list shows Failed to load members inline', async () => {
    server({ members: [], failDetail: true });
    const { dialog } = await open();
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Failed to load members');
  });
});

describe('InboxesPage for an agent', () => {
  beforeEach(() => signInAs('AGENT'));

  it('lists inboxes and their members read-only, and says why', async () => {
    stubServer((request) => {
      if (request.url.endsWith('/inboxes')) return ok({ inboxes: [SUPPORT] });
      if (request.url.endsWith('/users')) return ok({ users: USERS });
      return ok({ inbox: detail(['u-1']) });
    });
    const events = userEvent.setup();
    renderWithProviders(<InboxesPage />);
    const support = (await screen.findByRole('heading', { name: 'Support' })).closest('li') as HTMLElement;
    expect(screen.getByText('Only the owner and admins can change these settings.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create Inbox' })).toBeNull();
    expect(within(support).queryByRole('button', { name: 'Delete Support' })).toBeNull();
    expect(within(support).queryByRole('button', { name: 'Configure call routing for Support' })).toBeNull();

    await events.click(within(support).getByRole('button', { name: /1 member$/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage Members' });
    expect(await within(dialog).findByText('Ada Lovelace')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Remove Ada Lovelace' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Add Grace Hopper' })).toBeNull();
  });
});
