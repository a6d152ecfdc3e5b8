import { MEMBER_REMOVAL_SWEEP_MINUTES } from '@shared/constants';
import type { Role } from '@shared/contract/auth';
import type { TeamUser } from '@shared/contract/settings';
import type { Invitation } from '@shared/contract/team';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { applyEvent } from '@/lib/realtime/event-cache';
import { session } from '@/lib/services';
import {
  callLine,
  endpoints,
  fail,
  isCall,
  json,
  ok,
  type Recorded,
  renderWithProviders,
  sampleCompany,
  sampleUser,
  stubServer,
  urlOf,
} from '@/test-utils';
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

const INVITATION: Invitation = {
  id: 'inv-1',
  email: 'new@example.com',
  role: 'ADMIN',
  invitedBy: { id: 'u1', name: 'Ada Lovelace' },
  expiresAt: '2030-01-08T12:00:00.000Z',
  createdAt: '2030-01-01T12:00:00.000Z',
  expired: false,
};

const signInAs = (role: Role, id = 'u1') =>
  session.signIn({ user: { ...sampleUser, id, role }, company: sampleCompany, tokens: { accessToken: 'a', refreshToken: 'r' } });

afterEach(() => session.clear());

/** Answers the Team page's two lists, and whatever `other` answers for changes. */
function teamServer(other: (r: Recorded) => Response = () => ok({})) {
  let invitations: Invitation[] = [INVITATION];
  const requests = stubServer((r) => {
    if (r.method === 'GET' && r.url === urlOf(endpoints.listUsers)) return ok({ users: USERS });
    if (r.method === 'GET' && r.url === urlOf(endpoints.listInvitations)) return ok({ invitations });
    const answer = other(r);
    if (answer.ok && isCall(r, endpoints.revokeInvitation)) invitations = [];
    return answer;
  });
  return requests;
}

/** The text a screen reader reads after a control's name: its aria-describedby targets. */
const description = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent?.trim() ?? '')
    .join(' ')
    .trim();

const changes = (requests: Recorded[]) => requests.filter((r) => r.method !== 'GET');

describe('TeamPage', () => {
  it('lists users with avatar or initial, role badge, last active and a disabled Edit; counts them', async () => {
    stubServer(() => ok({ users: USERS }));
    renderWithProviders(<TeamPage />);
    await screen.findByText('Ada Lovelace');

    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['User', 'Role', 'Last Active', 'Actions']);
    const ada = screen.getByRole('row', { name: /Ada Lovelace/ });
    expect(within(ada).getByText('Owner')).toBeTruthy();
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

  it('lets the owner invite by e-mail and role, and shows the invitation as sent', async () => {
    signInAs('OWNER');
    const requests = teamServer(() => ok({ invitation: { ...INVITATION, email: 'sam@example.com', role: 'AGENT' } }, 201));
    const events = userEvent.setup();
    renderWithProviders(<TeamPage />);
    await events.click(await screen.findByRole('button', { name: 'Invite Member' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite Member' });
    const role = within(dialog).getByLabelText(/Role/) as HTMLSelectElement;
    expect(role.value).toBe('');
    expect(role.selectedOptions[0]?.textContent).toBe('Choose a role...');
    await events.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(within(dialog).getByText('Email is required')).toBeTruthy();
    expect(within(dialog).getByText('Choose a role: Admin or Agent')).toBeTruthy();
    expect(role.getAttribute('aria-invalid')).toBe('true');
    expect(changes(requests)).toEqual([]);

    // The role is still to be chosen: nothing is sent, and the cursor goes to it.
    const email = within(dialog).getByLabelText(/Email/);
    await events.type(email, 'sam@example.com');
    await events.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(within(dialog).queryByText('Email is required')).toBeNull();
    expect(within(dialog).getByText('Choose a role: Admin or Agent')).toBeTruthy();
    expect(document.activeElement).toBe(role);
    expect(changes(requests)).toEqual([]);

    expect([...role.options].map((o) => o.value)).toEqual(['', 'AGENT', 'ADMIN']);
    await events.selectOptions(role, 'AGENT');
    await events.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('Invitation sent to sam@example.com.')).toBeTruthy();
    expect(changes(requests).at(-1)).toEqual({
      url: urlOf(endpoints.createInvitation),
      method: 'POST',
      body: { email: 'sam@example.com', role: 'AGENT' },
    });
  });

  it('lists pending invitations with resend and a confirmed revoke', async () => {
    signInAs('ADMIN', 'u9');
    const requests = teamServer(() => ok({ invitation: INVITATION }));
    const events = userEvent.setup();
    renderWithProviders(<TeamPage />);
    const section = await screen.findByRole('region', { name: 'Pending Invitations (1)' });
    expect(within(section).getByText('new@example.com')).toBeTruthy();
    expect(within(section).getByText('Admin')).toBeTruthy();

    await events.click(within(section).getByRole('button', { name: 'Resend invitation to new@example.com' }));
    expect(await screen.findByText('Invitation sent again to new@example.com.')).toBeTruthy();

    await events.click(within(section).getByRole('button', { name: 'Revoke invitation to new@example.com' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Revoke invitation?' });
    await events.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: /Pending Invitations/ })).toBeNull());
    expect(changes(requests).map((r) => `${r.method} ${r.url}`)).toEqual([
      callLine(endpoints.resendInvitation, { id: 'inv-1' }),
      callLine(endpoints.revokeInvitation, { id: 'inv-1' }),
    ]);
  });

  it('the owner changes a role and removes a member after confirming; never the owner or themselves', async () => {
    signInAs('OWNER');
    const requests = teamServer(() => ok({ user: { id: 'u2' }, conversations: { moved: 0, complete: true } }));
    const events = userEvent.setup();
    renderWithProviders(<TeamPage />);
    const ada = await screen.findByRole('row', { name: /Ada Lovelace/ });
    expect((within(ada).getByRole('button', { name: 'Edit Ada Lovelace' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(ada).queryByRole('button', { name: 'Remove Ada Lovelace' })).toBeNull();

    const grace = screen.getByRole('row', { name: /Grace Hopper/ });
    await events.click(within(grace).getByRole('button', { name: 'Edit Grace Hopper' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Grace Hopper' });
    const save = within(dialog).getByRole('button', { name: 'Save Role' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    await events.selectOptions(within(dialog).getByLabelText('Role'), 'ADMIN');
    await events.click(save);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await events.click(within(grace).getByRole('button', { name: 'Remove Grace Hopper' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Remove Grace Hopper?' });
    await events.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Grace Hopper was removed from the team.')).toBeTruthy();
    expect(changes(requests)).toEqual([
      { url: urlOf(endpoints.updateUserRole, { id: 'u2' }), method: 'PATCH', body: { role: 'ADMIN' } },
      { url: urlOf(endpoints.removeUser, { id: 'u2' }), method: 'DELETE', body: undefined },
    ]);
  });

  it("asks where the member's conversations go: Unassigned by default or a member the remover picks, and moves them all", async () => {
    signInAs('OWNER');
    const alan: TeamUser = {
      ...(USERS[1] as TeamUser),
      id: 'u3',
      name: 'Alan Turing',
      email: 'alan@example.com',
      avatarUrl: null,
    };
    let passes = 0;
    const requests = stubServer((r) => {
      if (r.method === 'GET' && r.url === urlOf(endpoints.listUsers)) return ok({ users: [...USERS, alan] });
      if (r.method === 'GET' && r.url === urlOf(endpoints.listInvitations)) return ok({ invitations: [] });
      if (r.method === 'GET' && r.url.startsWith(urlOf(endpoints.listConversations)))
        return ok({ conversations: [], total: 30, pagination: { total: 30, limit: 1, offset: 0, nextCursor: null } });
      // The first pass runs out of time with 25 moved; the second moves the rest.
      passes += 1;
      return ok({
        user: { id: 'u2' },
        conversations: passes === 1 ? { moved: 25, complete: false } : { moved: 5, complete: true },
      });
    });
    const events = userEvent.setup();
    renderWithProviders(<TeamPage />);
    const grace = await screen.findByRole('row', { name: /Grace Hopper/ });
    await events.click(within(grace).getByRole('button', { name: 'Remove Grace Hopper' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Remove Grace Hopper?' });
    const choice = within(confirm).getByLabelText('Their conversations') as HTMLSelectElement;
    // Keyboard first: the choice has the focus, and it starts at Unassigned.
    expect(document.activeElement).toBe(choice);
    expect(choice.selectedOptions[0]?.textContent).toBe('Leave unassigned');
    expect([...choice.options].map((o) => o.textContent)).toEqual([
      'Leave unassigned',
      'Reassign to Ada Lovelace',
      'Reassign to Alan Turing',
    ]);
    expect(await within(confirm).findByText('30 conversations are assigned to Grace Hopper.')).toBeTruthy();
    expect(description(choice)).toBe('30 conversations are assigned to Grace Hopper.');

    await events.selectOptions(choice, 'Reassign to Alan Turing');
    await events.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(
      await screen.findByText('Grace Hopper was removed from the team. 30 conversations are reassigned to Alan Turing.'),
    ).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(changes(requests)).toEqual([
      { url: urlOf(endpoints.removeUser, { id: 'u2' }), method: 'DELETE', body: { reassignTo: 'u3' } },
      { url: urlOf(endpoints.removeUser, { id: 'u2' }), method: 'DELETE', body: { reassignTo: 'u3' } },
    ]);
  });

  it('stops waiting after ten passes and says the rest move within minutes, without an error', async () => {
    signInAs('OWNER');
    const requests = stubServer((r) => {
      if (r.method === 'GET' && r.url === urlOf(endpoints.listUsers)) return ok({ users: USERS });
      if (r.method === 'GET' && r.url === urlOf(endpoints.listInvitations)) return ok({ invitations: [] });
      if (r.method === 'GET' && r.url.startsWith(urlOf(endpoints.listConversations)))
        return ok({ conversations: [], total: 900, pagination: { total: 900, limit: 1, offset: 0, nextCursor: null } });
      // A huge backlog: every pass runs out of time.
      return ok({ user: { id: 'u2' }, conversations: { moved: 25, complete: false } });
    });
    const events = userEvent.setup();
    renderWithProviders(<TeamPage />);
    const grace = await screen.findByRole('row', { name: /Grace Hopper/ });
    await events.click(within(grace).getByRole('button', { name: 'Remove Grace Hopper' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Remove Grace Hopper?' });
    await events.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(
      await screen.findByText(
        `Grace Hopper was removed from the team. 250 conversations are now unassigned. The rest become unassigned within ${MEMBER_REMOVAL_SWEEP_MINUTES} minutes.`,
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(changes(requests)).toHaveLength(10);
  });

  it('an invitation accepted elsewhere leaves Pending Invitations and joins the team list without navigating', async () => {
    signInAs('OWNER');
    const joined: TeamUser = {
      id: 'u5',
      name: 'New Colleague',
      email: 'new@example.com',
      role: 'ADMIN',
      avatarUrl: null,
      lastActiveAt: new Date().toISOString(),
    };
    let accepted = false;
    stubServer((r) =>
      r.url === urlOf(endpoints.listUsers)
        ? ok({ users: accepted ? [...USERS, joined] : USERS })
        : ok({ invitations: accepted ? [] : [INVITATION] }),
    );
    const { queryClient } = renderWithProviders(<TeamPage />);
    await screen.findByRole('region', { name: 'Pending Invitations (1)' });
    expect(screen.getByText('Showing 2 team members')).toBeTruthy();

    accepted = true;
    act(() => applyEvent(queryClient, { type: 'invitation_accepted', data: { invitationId: 'inv-1', user: joined } }));
    await waitFor(() => expect(screen.queryByRole('region', { name: /Pending Invitations/ })).toBeNull());
    expect(screen.getByRole('row', { name: /New Colleague/ })).toBeTruthy();
    expect(screen.getByText('Showing 3 team members')).toBeTruthy();
  });

  it('an invitation sent, sent again or revoked by another manager shows in Pending Invitations without navigating', async () => {
    signInAs('AGENT', 'u2');
    let invitations: Invitation[] = [INVITATION];
    stubServer((r) => (r.url === urlOf(endpoints.listUsers) ? ok({ users: USERS }) : ok({ invitations })));
    const { queryClient } = renderWithProviders(<TeamPage />);
    const pending = () => screen.getByRole('region', { name: /Pending Invitations/ });
    await screen.findByRole('region', { name: 'Pending Invitations (1)' });

    // Sent in another manager's tab.
    const sent: Invitation = {
      ...INVITATION,
      id: 'inv-2',
      email: 'second@example.com',
      role: 'AGENT',
      expiresAt: '2030-01-09T12:00:00.000Z',
      createdAt: '2030-01-02T12:00:00.000Z',
    };
    invitations = [INVITATION, sent];
    act(() => applyEvent(queryClient, { type: 'invitation_changed', data: { invitationId: 'inv-2', invitation: sent } }));
    await screen.findByRole('region', { name: 'Pending Invitations (2)' });
    expect(within(pending()).getByText('second@example.com')).toBeTruthy();
    const expiry = (email: string) =>
      within(within(pending()).getByText(email).closest('li') as HTMLElement).getByText(/expires|link expired/).textContent;
    const before = expiry('second@example.com');

    // Sent again: its new expiry.
    const resent = { ...sent, expiresAt: '2030-02-20T12:00:00.000Z' };
    invitations = [INVITATION, resent];
    act(() => applyEvent(queryClient, { type: 'invitation_changed', data: { invitationId: 'inv-2', invitation: resent } }));
    await waitFor(() => expect(expiry('second@example.com')).not.toBe(before));
    expect(screen.getByRole('region', { name: 'Pending Invitations (2)' })).toBeTruthy();

    // Revoked: it leaves the list.
    invitations = [resent];
    act(() => applyEvent(queryClient, { type: 'invitation_changed', data: { invitationId: 'inv-1', invitation: null } }));
    await screen.findByRole('region', { name: 'Pending Invitations (1)' });
    expect(within(pending()).queryByText('new@example.com')).toBeNull();
    expect(within(pending()).getByText('second@example.com')).toBeTruthy();
  });

  it('an admin invites agents only and removes agents only: only the owner grants or takes away admin', async () => {
    signInAs('ADMIN', 'u9');
    const alanTuring = { ...USERS[1], id: 'u3', name: 'Alan Turing', email: 'alan@example.com', role: 'ADMIN' } as TeamUser;
    stubServer((r) => (r.url === urlOf(endpoints.listUsers) ? ok({ users: [...USERS, alanTuring] }) : ok({ invitations: [] })));
    const events = userEvent.setup();
    renderWithProviders(<TeamPage />);
    const grace = await screen.findByRole('row', { name: /Grace Hopper/ });
    expect(within(grace).getByRole('button', { name: 'Remove Grace Hopper' })).toBeTruthy();
    const alan = screen.getByRole('row', { name: /Alan Turing/ });
    expect(within(alan).queryByRole('button', { name: 'Remove Alan Turing' })).toBeNull();
    expect(screen.getByText('Only the owner can change roles or remove admins.')).toBeTruthy();

    await events.click(screen.getByRole('button', { name: 'Invite Member' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite Member' });
    const role = within(dialog).getByLabelText(/Role/) as HTMLSelectElement;
    expect([...role.options].map((o) => o.value)).toEqual(['', 'AGENT']);
    expect(within(dialog).getByText('Only the owner can invite an admin.')).toBeTruthy();
  });

  it('is read-only for an agent, with the reason on screen and tied to each disabled button', async () => {
    signInAs('AGENT', 'u2');
    teamServer();
    renderWithProviders(<TeamPage />);
    const section = await screen.findByRole('region', { name: 'Pending Invitations (1)' });
    expect(within(section).queryAllByRole('button')).toEqual([]);
    const invite = screen.getByRole('button', { name: 'Invite Member' }) as HTMLButtonElement;
    expect(invite.disabled).toBe(true);
    expect(screen.getByText('Only the owner and admins can invite or remove members.')).toBeTruthy();
    expect(description(invite)).toBe('Only the owner and admins can invite or remove members.');
    const edit = screen.getByRole('button', { name: 'Edit Grace Hopper' }) as HTMLButtonElement;
    expect(edit.disabled).toBe(true);
    expect(screen.getByText('Only the owner can change roles.')).toBeTruthy();
    expect(description(edit)).toBe('Only the owner can change roles.');
    expect(screen.queryByRole('button', { name: /^Remove/ })).toBeNull();
  });

  it("the owner's disabled Edit on their own row says why; roles read as words and old dates as dates", async () => {
    signInAs('OWNER');
    stubServer((r) =>
      r.url === urlOf(endpoints.listUsers)
        ? ok({ users: [USERS[0], { ...USERS[1], role: 'ADMIN', lastActiveAt: '2026-11-12T12:00:00.000Z' }] })
        : ok({ invitations: [INVITATION] }),
    );
    renderWithProviders(<TeamPage />);
    const ada = await screen.findByRole('row', { name: /Ada Lovelace/ });
    const edit = within(ada).getByRole('button', { name: 'Edit Ada Lovelace' }) as HTMLButtonElement;
    expect(edit.disabled).toBe(true);
    expect(description(edit)).toBe("The owner's role cannot be changed.");
    expect(screen.queryByText('Only the owner can change roles.')).toBeNull();
    const grace = screen.getByRole('row', { name: /Grace Hopper/ });
    expect(within(grace).getByText('Admin')).toBeTruthy();
    expect(within(grace).getByText('Nov 12, 2026')).toBeTruthy();
    const invitation = await screen.findByRole('region', { name: 'Pending Invitations (1)' });
    expect(within(invitation).getByText('Admin')).toBeTruthy();
    expect(within(invitation).getByText(/expires Jan 8, 2030/)).toBeTruthy();
    expect(screen.queryByText(/OWNER|ADMIN|AGENT/)).toBeNull();
  });

  it('role colours: OWNER purple, ADMIN blue, AGENT green, anything else grey', () => {
    expect(['OWNER', 'ADMIN', 'AGENT', 'SUPERVISOR'].map(roleTone)).toEqual(['purple', 'blue', 'green', 'neutral']);
  });
});
