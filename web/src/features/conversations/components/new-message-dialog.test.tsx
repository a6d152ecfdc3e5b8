import type { Conversation, SendingNumber } from '@shared/contract/conversations';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  deferred,
  endpoints,
  fail,
  isCall,
  ok,
  type Recorded,
  renderWithProviders,
  signInAs,
  stubServer,
  urlOf,
} from '@/test-utils';
import { ConversationsPage } from './conversations-page';
import { NO_SENDING_NUMBERS } from './new-message-dialog';

const SUPPORT: SendingNumber = { channelId: 'ch-1', phoneNumber: '+14155550101', mms: true, inboxName: 'Support' };
const MINE: SendingNumber = { channelId: 'ch-2', phoneNumber: '+14155550102', mms: true, inboxName: null };

const started = (to: string): Conversation => ({
  id: 'cv-new',
  status: 'OPEN',
  contact: { id: 'ct-1', name: '', phoneNumber: to },
  channel: { id: 'ch-1', identifier: '+14155550101' },
  lastMessage: { direction: 'OUTBOUND', body: 'Hello' },
  lastMessageAt: new Date().toISOString(),
  messageCount: 1,
  optedOut: false,
  createdAt: new Date().toISOString(),
  assignee: null,
  unreadCount: 0,
});

/** The routes the page and the dialog read; `start` answers the new conversation's POST. */
function server(options: { numbers?: SendingNumber[]; start?: (r: Recorded) => Response | Promise<Response> } = {}) {
  return stubServer((r) => {
    const url = new URL(r.url, 'http://app');
    if (isCall(r, endpoints.listSendingNumbers)) return ok({ sendingNumbers: options.numbers ?? [SUPPORT, MINE] });
    if (isCall(r, endpoints.startConversation)) return options.start?.(r) ?? ok({ conversation: started('+12025550123') }, 201);
    if (url.pathname === urlOf(endpoints.listContacts)) {
      const search = url.searchParams.get('search') ?? '';
      const book = [
        { id: 'ct-ada', name: 'Ada Lovelace', phoneNumber: '+12025550188' },
        { id: 'ct-alan', name: 'Alan Turing', phoneNumber: '+447700900123' },
      ].filter((c) => c.name.toLowerCase().includes(search.toLowerCase()));
      return ok({
        contacts: book.map((c) => ({
          ...c,
          email: null,
          notes: null,
          callCount: 0,
          conversationCount: 0,
          lastContactAt: null,
          lastConversationId: null,
          createdAt: new Date().toISOString(),
        })),
      });
    }
    if (url.pathname === urlOf(endpoints.listChannels)) return ok({ channels: [] });
    if (url.pathname === urlOf(endpoints.listUsers)) return ok({ users: [] });
    if (url.pathname === urlOf(endpoints.listConversations)) {
      return ok({ conversations: [], total: 0, pagination: { total: 0, limit: 20, offset: 0, nextCursor: null } });
    }
    if (url.pathname.startsWith(urlOf(endpoints.getConversation, { id: 'cv-new' })))
      return fail(404, 'Conversation not found', 'NOT_FOUND');
    return fail(404, `unexpected ${r.method} ${url.pathname}`, 'NOT_FOUND');
  });
}

const renderPage = (path = '/conversations') =>
  renderWithProviders(<ConversationsPage />, { path, route: '/conversations/:conversationId?' });

const sentBodies = (calls: Recorded[]) => calls.filter((r) => isCall(r, endpoints.startConversation)).map((r) => r.body);

async function openDialog() {
  await userEvent.click(screen.getByRole('button', { name: 'New message' }));
  return screen.findByRole('dialog', { name: 'New message' });
}

beforeEach(() => signInAs('AGENT'));

describe('New message', () => {
  it('formats the number as typed, offers the member’s numbers with their inboxes, sends and opens the thread', async () => {
    const calls = server();
    renderPage();
    const dialog = await openDialog();

    const to = within(dialog).getByLabelText('To');
    await userEvent.type(to, '2025550123');
    expect((to as HTMLInputElement).value).toBe('(202) 555-0123');
    const from = within(dialog).getByLabelText('From');
    await waitFor(() => expect(within(from).getByRole('option', { name: '(415) 555-0101 · Support' })).toBeTruthy());
    expect(within(from).getByRole('option', { name: '(415) 555-0102' })).toBeTruthy();
    await userEvent.selectOptions(from, 'ch-1');
    await userEvent.type(within(dialog).getByLabelText('Message'), 'Hello');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New message' })).toBeNull());
    expect(sentBodies(calls)).toEqual([{ to: '(202) 555-0123', channelId: 'ch-1', body: 'Hello' }]);
    // The thread of the new conversation is asked for: the page opened it.
    await waitFor(() =>
      expect(
        calls.some((r) => new URL(r.url, 'http://app').pathname === urlOf(endpoints.getConversation, { id: 'cv-new' })),
      ).toBe(true),
    );
  });

  it('says what is missing before sending anything', async () => {
    const calls = server();
    renderPage();
    const dialog = await openDialog();
    await within(dialog).findByRole('option', { name: '(415) 555-0101 · Support' });

    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(within(dialog).getByText('Please enter a phone number')).toBeTruthy();
    expect(within(dialog).getByText('Choose a number to send from')).toBeTruthy();
    expect(within(dialog).getByText('Message content must not be empty')).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByLabelText('To'));

    await userEvent.type(within(dialog).getByLabelText('To'), '1234567890');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(within(dialog).getByText('Invalid phone number for United States')).toBeTruthy();
    expect(sentBodies(calls)).toEqual([]);
  });

  it('picks a contact by name', async () => {
    const calls = server({ numbers: [SUPPORT] });
    renderPage();
    const dialog = await openDialog();

    await userEvent.type(within(dialog).getByLabelText('To'), 'ada');
    const matches = await within(dialog).findByRole('list', { name: 'Matching contacts' });
    await userEvent.click(await within(matches).findByRole('button', { name: /Ada Lovelace/ }));
    expect((within(dialog).getByLabelText('To') as HTMLInputElement).value).toBe('(202) 555-0188');
    expect(within(dialog).getByText('Ada Lovelace · (202) 555-0188')).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Message'));
    // The only number to send from is the choice.
    expect((within(dialog).getByLabelText('From') as HTMLInputElement).value).toBe('ch-1');

    await userEvent.type(within(dialog).getByLabelText('Message'), 'Hi Ada');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sentBodies(calls)).toEqual([{ to: '+12025550188', channelId: 'ch-1', body: 'Hi Ada' }]));
  });

  it('disables Send while sending, and keeps what was typed when the send is refused', async () => {
    const answer = deferred();
    server({
      numbers: [SUPPORT],
      start: async () => {
        await answer.promise;
        return fail(
          409,
          'This contact opted out of texts from this number (they replied STOP). They can text START to opt back in.',
          'OPTED_OUT',
        );
      },
    });
    renderPage();
    const dialog = await openDialog();
    await within(dialog).findByRole('option', { name: '(415) 555-0101 · Support' });
    await userEvent.type(within(dialog).getByLabelText('To'), '2025550123');
    await userEvent.type(within(dialog).getByLabelText('Message'), 'Sale today');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));

    expect(((await within(dialog).findByRole('button', { name: 'Sending...' })) as HTMLButtonElement).disabled).toBe(true);
    answer.release(new Response());
    expect(
      await within(dialog).findByText(
        'This contact opted out of texts from this number (they replied STOP). They can text START to opt back in.',
      ),
    ).toBeTruthy();
    expect((within(dialog).getByLabelText('Message') as HTMLInputElement).value).toBe('Sale today');
    expect((within(dialog).getByLabelText('To') as HTMLInputElement).value).toBe('(202) 555-0123');
    expect((within(dialog).getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows the server’s word on a field next to it', async () => {
    server({ numbers: [SUPPORT], start: () => fail(403, 'You cannot start conversations from (415) 555-0101.', 'FORBIDDEN') });
    renderPage();
    const dialog = await openDialog();
    await within(dialog).findByRole('option', { name: '(415) 555-0101 · Support' });
    await userEvent.type(within(dialog).getByLabelText('To'), '2025550123');
    await userEvent.type(within(dialog).getByLabelText('Message'), 'Hi');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'You cannot start conversations from (415) 555-0101.',
    );
  });

  it('says so when the member has no number to text from', async () => {
    server({ numbers: [] });
    renderPage();
    const dialog = await openDialog();
    expect(await within(dialog).findByText(NO_SENDING_NUMBERS)).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('opens with the number of a contact’s Text action, and Ctrl+Enter sends', async () => {
    const calls = server({ numbers: [SUPPORT] });
    renderPage('/conversations?new=1&to=%2B12025550188');
    const dialog = await screen.findByRole('dialog', { name: 'New message' });
    expect((within(dialog).getByLabelText('To') as HTMLInputElement).value).toBe('(202) 555-0188');
    await within(dialog).findByRole('option', { name: '(415) 555-0101 · Support' });
    await userEvent.type(within(dialog).getByLabelText('Message'), 'Hello{Control>}{Enter}{/Control}');
    await waitFor(() => expect(sentBodies(calls)).toEqual([{ to: '(202) 555-0188', channelId: 'ch-1', body: 'Hello' }]));
  });
});
