import type { Channel, Inbox, TeamUser } from '@shared/contract/settings';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { deferred, endpoints, fail, json, ok, type Recorded, renderWithProviders, stubServer, urlOf } from '@/test-utils';
import { ConfigureRoutingDialog, routingChange } from './configure-routing-dialog';
import { routingText } from './routing-text';

const CHANNEL: Channel = {
  id: 'ch-1',
  type: 'PHONE',
  identifier: '+14155550101',
  friendlyName: 'Main line',
  status: 'ACTIVE',
  capabilities: { voice: true, sms: true, mms: false },
  routingType: 'UNASSIGNED',
  routingTargetId: null,
  routingTarget: null,
  providerId: 'prov-1',
  createdAt: '2025-01-01T00:00:00.000Z',
  health: { status: 'HEALTHY', checkedAt: '2025-01-01T00:00:00.000Z' },
};
const INBOXES: Inbox[] = [
  {
    id: 'ib-1',
    name: 'Support',
    description: null,
    memberCount: 1,
    channelCount: 0,
    createdAt: '2025-01-01T00:00:00.000Z',
    recordCalls: false,
  },
  {
    id: 'ib-2',
    name: 'Sales',
    description: 'Leads',
    memberCount: 0,
    channelCount: 0,
    createdAt: '2025-01-01T00:00:00.000Z',
    recordCalls: false,
  },
];
const USERS: TeamUser[] = [
  { id: 'u-1', name: 'Ada Lovelace', email: 'ada@example.com', role: 'OWNER', avatarUrl: null, lastActiveAt: null },
  { id: 'u-2', name: 'Grace Hopper', email: 'grace@example.com', role: 'AGENT', avatarUrl: null, lastActiveAt: null },
];

const ROUTING_URL = urlOf(endpoints.updateChannelRouting, { id: 'ch-1' });

function server(options: { inboxes?: Inbox[]; users?: TeamUser[]; patch?: (r: Recorded) => Response | Promise<Response> } = {}) {
  return stubServer((request) => {
    if (request.url === urlOf(endpoints.listInboxes)) return ok({ inboxes: options.inboxes ?? INBOXES });
    if (request.url === urlOf(endpoints.listUsers)) return ok({ users: options.users ?? USERS });
    if (request.url === ROUTING_URL) return options.patch?.(request) ?? ok({ channel: CHANNEL });
    if (request.url === urlOf(endpoints.listChannels)) return ok({ channels: [CHANNEL] });
    return json(404, {});
  });
}

function renderDialog(channel: Channel = CHANNEL) {
  const onOpenChange = vi.fn();
  renderWithProviders(<ConfigureRoutingDialog channel={channel} open onOpenChange={onOpenChange} />);
  return { onOpenChange, dialog: screen.getByRole('dialog', { name: 'Configure Routing' }) };
}

const save = () => screen.getByRole('button', { name: /^(Save Routing|Saving\.\.\.)$/ }) as HTMLButtonElement;
const radio = (name: string) => screen.getByRole('radio', { name: new RegExp(`^${name}`) }) as HTMLInputElement;
const patches = (requests: Recorded[]) => requests.filter((r) => r.method === 'PATCH');

describe('ConfigureRoutingDialog', () => {
  it('shows the channel and the three options with their descriptions, starting from the current routing', async () => {
    server();
    const { dialog } = renderDialog();
    expect(within(dialog).getByText('(415) 555-0101')).toBeTruthy();
    expect(radio('Unassigned').checked).toBe(true);
    expect(radio('Team Inbox').checked).toBe(false);
    expect(radio('Specific User').checked).toBe(false);
    expect(screen.getByText("Don't route incoming communications")).toBeTruthy();
    expect(screen.getByText('Route to a shared team inbox')).toBeTruthy();
    expect(screen.getByText("Route to a user's private line")).toBeTruthy();
    await waitFor(() => expect(save().disabled).toBe(false));
  });

  it('save is blocked while the inboxes and users load', async () => {
    const users = deferred();
    stubServer((request) => (request.url === urlOf(endpoints.listUsers) ? users.promise : ok({ inboxes: INBOXES })));
    renderDialog();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(save().disabled).toBe(true);
    users.release(ok({ users: USERS }));
    await waitFor(() => expect(save().disabled).toBe(false));
  });

  it('Team Inbox needs an inbox: save stays blocked on the placeholder, then sends the chosen inbox', async () => {
    const requests = server();
    const events = userEvent.setup();
    const { onOpenChange } = renderDialog();
    await events.click(radio('Team Inbox'));

    const select = (await screen.findByRole('combobox', { name: 'Inbox' })) as HTMLSelectElement;
    expect(select.value).toBe('');
    expect(select.selectedOptions[0]?.textContent).toBe('Choose an inbox...');
    expect(save().disabled).toBe(true);
    await events.click(save());
    expect(patches(requests)).toEqual([]);

    await events.selectOptions(select, 'Sales');
    expect(save().disabled).toBe(false);
    await events.click(save());
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(patches(requests)).toEqual([
      { url: ROUTING_URL, method: 'PATCH', body: { routingType: 'INBOX', routingTargetId: 'ib-2' } },
    ]);
  });

  it('Specific User lists name and e-mail and needs a choice', async () => {
    const requests = server();
    const events = userEvent.setup();
    renderDialog();
    await events.click(radio('Specific User'));
    const select = (await screen.findByRole('combobox', { name: 'User' })) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual([
      'Choose a user...',
      'Ada Lovelace (ada@example.com)',
      'Grace Hopper (grace@example.com)',
    ]);
    expect(save().disabled).toBe(true);
    await events.selectOptions(select, 'u-2');
    await events.click(save());
    await waitFor(() => expect(patches(requests)).toHaveLength(1));
    expect(patches(requests)[0]?.body).toEqual({ routingType: 'USER', routingTargetId: 'u-2' });
  });

  it('with nothing to choose from it says so and save stays blocked', async () => {
    server({ inboxes: [], users: [] });
    const events = userEvent.setup();
    renderDialog();
    await events.click(radio('Team Inbox'));
    expect(await screen.findByText(/No inboxes available\. Create an inbox first\./)).toBeTruthy();
    expect(save().disabled).toBe(true);
    await events.click(radio('Specific User'));
    expect(await screen.findByText('No users available.')).toBeTruthy();
    expect(save().disabled).toBe(true);
    // Unassigned needs no target.
    await events.click(radio('Unassigned'));
    expect(save().disabled).toBe(false);
  });

  it('a channel routed to a user starts on that user; switching to Unassigned sends routingTargetId null', async () => {
    const answer = deferred();
    const requests = server({ patch: () => answer.promise });
    const events = userEvent.setup();
    const { onOpenChange } = renderDialog({
      ...CHANNEL,
      routingType: 'USER',
      routingTargetId: 'u-2',
      routingTarget: { name: 'Grace Hopper' },
    });
    expect(radio('Specific User').checked).toBe(true);
    const select = (await screen.findByRole('combobox', { name: 'User' })) as HTMLSelectElement;
    expect(select.value).toBe('u-2');

    await events.click(radio('Unassigned'));
    expect(screen.queryByRole('combobox')).toBeNull();
    await events.click(save());
    expect(save().textContent).toBe('Saving...');
    expect(save().disabled).toBe(true);
    expect(patches(requests)).toEqual([
      { url: ROUTING_URL, method: 'PATCH', body: { routingType: 'UNASSIGNED', routingTargetId: null } },
    ]);
    answer.release(ok({ channel: CHANNEL }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
  });

  it('a target that no longer exists counts as none', async () => {
    server();
    renderDialog({ ...CHANNEL, routingType: 'INBOX', routingTargetId: 'ib-gone', routingTarget: null });
    const select = (await screen.findByRole('combobox', { name: 'Inbox' })) as HTMLSelectElement;
    expect(select.value).toBe('');
    expect(save().disabled).toBe(true);
  });

  it('a failed save keeps the dialog and the choice, showing the server message or Failed to update routing', async () => {
    let message = 'Inbox not found';
    server({ patch: () => (message ? fail(404, message, 'NOT_FOUND') : new Response('', { status: 500 })) });
    const events = userEvent.setup();
    const { onOpenChange } = renderDialog();
    await events.click(radio('Team Inbox'));
    await events.selectOptions(await screen.findByRole('combobox', { name: 'Inbox' }), 'Support');
    await events.click(save());
    expect((await screen.findByRole('alert')).textContent).toBe('Inbox not found');

    message = '';
    await events.click(save());
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Failed to update routing'));
    expect((screen.getByRole('combobox', { name: 'Inbox' }) as HTMLSelectElement).value).toBe('ib-1');
    expect(onOpenChange).not.toHaveBeenCalled();
  });
});

describe('routingChange', () => {
  it('UNASSIGNED always sends null; INBOX and USER need a target', () => {
    expect(routingChange('UNASSIGNED', 'ib-1')).toEqual({ routingType: 'UNASSIGNED', routingTargetId: null });
    expect(routingChange('INBOX', '')).toBeNull();
    expect(routingChange('USER', '')).toBeNull();
    expect(routingChange('INBOX', 'ib-1')).toEqual({ routingType: 'INBOX', routingTargetId: 'ib-1' });
  });
});

describe('routingText', () => {
  it('Unassigned, the target name, its fallback, or Unknown', () => {
    expect(routingText({ routingType: 'UNASSIGNED', routingTarget: null })).toEqual({
      text: 'Unassigned',
      routed: false,
      target: null,
    });
    expect(routingText({ routingType: 'INBOX', routingTarget: { name: 'Support' } })).toEqual({
      text: 'Support',
      routed: true,
      target: 'INBOX',
    });
    expect(routingText({ routingType: 'USER', routingTarget: { name: 'Ada' } }).target).toBe('USER');
    expect(routingText({ routingType: 'INBOX', routingTarget: null }).text).toBe('Inbox');
    expect(routingText({ routingType: 'USER', routingTarget: null }).text).toBe('User');
    expect(routingText({ routingType: 'SOMETHING' as Channel['routingType'], routingTarget: null }).text).toBe('Unknown');
  });
});
