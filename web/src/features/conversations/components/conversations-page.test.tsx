import { MAX_NOTE_LENGTH } from '@shared/constants';
import type { Conversation, ConversationDetail, MemberRef, Message, SendingBlock } from '@shared/contract/conversations';
import type { Channel, TeamUser } from '@shared/contract/settings';
import { findMentions } from '@shared/mentions';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { conversationKeys } from '@/lib/conversation-cache';
import { formatDate, formatDateTime } from '@/lib/format-date';
import { CALLING_NOT_SET_UP } from '@/lib/place-call';
import { applyEvent } from '@/lib/realtime/event-cache';
import {
  bytes,
  callLine,
  deferred,
  endpoints,
  fail,
  isCall,
  ok,
  type Recorded,
  renderWithProviders,
  sampleUser,
  signInAs,
  stubObjectUrls,
  stubServer,
  urlOf,
} from '@/test-utils';
import { ConversationsPage } from './conversations-page';

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

const SMS_CHANNEL = {
  id: 'ch-1',
  type: 'PHONE',
  identifier: '+14155550101',
  status: 'ACTIVE',
  capabilities: { voice: true, sms: true, mms: true },
} as Channel;

function conversation(n: number, over: Partial<Conversation> = {}): Conversation {
  return {
    id: `cv-${n}`,
    status: 'OPEN',
    contact: { id: `ct-${n}`, name: '', phoneNumber: `+1415555${String(200 + n).padStart(4, '0')}` },
    channel: { id: 'ch-1', identifier: '+14155550101' },
    lastMessage: { direction: 'INBOUND', body: `Message ${n}` },
    lastMessageAt: minutesAgo(n),
    messageCount: 1,
    optedOut: false,
    createdAt: minutesAgo(n),
    assignee: null,
    unreadCount: 0,
    ...over,
  };
}

let messageSeq = 0;
function message(conversationId: string, over: Partial<Message> & { providerStatus?: string | null } = {}): Message {
  const { providerStatus = null, ...rest } = over;
  messageSeq += 1;
  return {
    id: `m-${messageSeq}`,
    conversationId,
    type: 'SMS',
    mentions: [],
    media: [],
    direction: 'INBOUND',
    body: `Text ${messageSeq}`,
    status: 'RECEIVED',
    createdAt: new Date(Date.UTC(2026, 0, 1, 10, messageSeq)).toISOString(),
    sentBy: null,
    smsMessage: { providerStatus, providerMessageId: `SM${messageSeq}`, segments: 1, errorCode: null, errorMessage: null },
    ...rest,
  };
}

interface ServerState {
  conversations: Conversation[];
  /** Oldest first. */
  messages: Record<string, Message[]>;
  channels?: Channel[];
  /** Why a conversation cannot send now, by id. */
  blocked?: Record<string, SendingBlock>;
  /** The company's members (the team list). */
  users?: TeamUser[];
  /** Who may be assigned or mentioned, by conversation id (the detail's `members`); absent: every member in `users`. */
  members?: Record<string, MemberRef[]>;
}

/**
 * The conversation routes as the server answers them: filtered, newest activity first, pages of 20
 * by cursor; a thread's newest `pageSize` messages with `olderCursor`; sends and status changes kept.
 */
function conversationServer(
  state: ServerState,
  options: { pageSize?: number; other?: (r: Recorded) => Response | Promise<Response> | undefined } = {},
) {
  const pageSize = options.pageSize ?? 50;
  return stubServer((r) => {
    const answer = options.other?.(r);
    if (answer) return answer;
    const url = new URL(r.url, 'http://app');
    if (url.pathname === urlOf(endpoints.listChannels)) return ok({ channels: state.channels ?? [SMS_CHANNEL] });
    if (url.pathname === urlOf(endpoints.listUsers)) return ok({ users: state.users ?? [] });
    if (url.pathname === urlOf(endpoints.listConversations)) {
      const status = url.searchParams.get('status') ?? 'BOTH';
      const assignee = url.searchParams.get('assignee');
      const limit = Number(url.searchParams.get('limit'));
      const offset = Number(url.searchParams.get('cursor') ?? 0);
      const matching = state.conversations
        .filter((c) => status === 'BOTH' || c.status === status)
        .filter((c) =>
          assignee === 'me' ? c.assignee?.id === sampleUser.id : assignee === 'unassigned' ? c.assignee === null : true,
        )
        .sort((a, b) => b.lastMessageAt.localeCompare(a.lastMessageAt));
      const next = offset + limit < matching.length ? String(offset + limit) : null;
      const total = matching.length;
      return ok({
        conversations: matching.slice(offset, offset + limit),
        total,
        pagination: { total, limit, offset, nextCursor: next },
      });
    }
    const thread = /^\/api\/v1\/conversations\/([^/]+)(\/.*)?$/.exec(url.pathname);
    const found = state.conversations.find((c) => c.id === thread?.[1]);
    if (!thread || !found) return fail(404, 'Conversation not found', 'NOT_FOUND');
    if (r.method === 'GET') {
      const all = state.messages[found.id] ?? [];
      const end = Number(url.searchParams.get('before') ?? all.length);
      const start = Math.max(0, end - pageSize);
      const detail: ConversationDetail = {
        ...found,
        members: state.members?.[found.id] ?? (state.users ?? []).map(({ id, name }) => ({ id, name })),
        sendingBlockedBy: state.blocked?.[found.id] ?? null,
        picturesBlockedBy: null,
        messages: all.slice(start, end),
        olderCursor: start > 0 ? String(start) : null,
      };
      return ok({ conversation: detail });
    }
    if (r.method === 'POST' && thread[2] === '/read') {
      Object.assign(found, { unreadCount: 0 });
      return ok({ conversation: { ...found } });
    }
    if (r.method === 'PATCH' && thread[2] === '/assignee') {
      const { userId } = r.body as { userId: string | null };
      const member = state.users?.find((u) => u.id === userId);
      if (userId !== null && !member) return fail(404, 'User not found', 'NOT_FOUND');
      Object.assign(found, { assignee: member ? { id: member.id, name: member.name } : null });
      return ok({ conversation: { ...found } });
    }
    if (r.method === 'POST' && thread[2] === '/notes') {
      const { body, mentionIds = [] } = r.body as { body: string; mentionIds?: string[] };
      const note = message(found.id, {
        type: 'NOTE',
        direction: 'OUTBOUND',
        status: 'SENT',
        body,
        sentBy: { id: sampleUser.id, name: sampleUser.name },
        mentions: findMentions(body, state.users ?? [], mentionIds).map(({ id, name }) => ({ id, name })),
      });
      state.messages[found.id] = [...(state.messages[found.id] ?? []), note];
      return ok({ message: note }, 201);
    }
    if (r.method === 'PATCH') {
      Object.assign(found, { status: (r.body as { status: Conversation['status'] }).status });
      return ok({ conversation: { ...found } });
    }
    const sent = message(found.id, { direction: 'OUTBOUND', body: (r.body as { body: string }).body, status: 'QUEUED' });
    state.messages[found.id] = [...(state.messages[found.id] ?? []), sent];
    return ok({ message: sent }, 201);
  });
}

const renderPage = (path = '/conversations') =>
  renderWithProviders(<ConversationsPage />, { path, route: '/conversations/:conversationId?' });

const list = () => screen.getByRole('region', { name: 'Conversation list' });
const items = () =>
  within(list())
    .queryAllByRole('link')
    .filter((a) => a.getAttribute('href')?.startsWith('/conversations/'));
const thread = () => document.querySelector('section[aria-labelledby="thread-title"]');
const threadRegion = () => {
  const element = thread();
  if (!(element instanceof HTMLElement)) throw new Error('no thread open');
  return within(element);
};
const pressed = (name: string) => screen.getByRole('button', { name }).getAttribute('aria-pressed');

beforeEach(() => signInAs('AGENT'));

describe('ConversationsPage list', () => {
  it('shows each conversation with its status, name or number, time, last message and count, and how many of the total', async () => {
    conversationServer({
      conversations: [
        conversation(1, { contact: { id: 'ct-1', name: 'Grace Hopper', phoneNumber: '+14155550201' }, messageCount: 4 }),
        conversation(90, {
          lastMessage: { direction: 'OUTBOUND', body: 'See you then', sentBy: { id: sampleUser.id, name: sampleUser.name } },
          messageCount: 2,
        }),
        conversation(3, { status: 'CLOSED' }),
      ],
      messages: {},
    });
    renderPage();
    await waitFor(() => expect(items()).toHaveLength(2));
    expect(screen.getByText('Showing 2 of 2 open conversations')).toBeTruthy();
    expect(pressed('Open')).toBe('true');
    expect(pressed('Closed')).toBe('false');

    const [grace, unnamed] = items() as [HTMLElement, HTMLElement];
    expect(grace.textContent).toBe('Open:Grace Hopper1m agoMessage 14 messages');
    // No name: the number as people read it; outbound last message with You:.
    expect(unnamed.textContent).toBe('Open:(415) 555-02901h agoYou: See you then2 messages');
  });

  it('filters by Closed and Both, saying which button is pressed and counting what the filter holds', async () => {
    const requests = conversationServer({
      conversations: [conversation(1), conversation(2, { status: 'CLOSED' }), conversation(3, { status: 'CLOSED' })],
      messages: {},
    });
    const events = userEvent.setup();
    renderPage();
    await waitFor(() => expect(items()).toHaveLength(1));

    await events.click(screen.getByRole('button', { name: 'Closed' }));
    await waitFor(() => expect(screen.getByText('Showing 2 of 2 closed conversations')).toBeTruthy());
    expect(pressed('Closed')).toBe('true');
    expect(pressed('Open')).toBe('false');
    expect(items().every((a) => a.textContent?.startsWith('Closed:'))).toBe(true);

    await events.click(screen.getByRole('button', { name: 'Both' }));
    await waitFor(() => expect(screen.getByText('Showing 3 of 3 conversations')).toBeTruthy());
    expect(requests.map((r) => r.url)).toEqual(
      expect.arrayContaining([
        urlOf(endpoints.listConversations, {}, { status: 'OPEN', limit: '20' }),
        urlOf(endpoints.listConversations, {}, { status: 'CLOSED', limit: '20' }),
        urlOf(endpoints.listConversations, {}, { status: 'BOTH', limit: '20' }),
      ]),
    );
  });

  it('Load More fetches the next page by cursor, says it is loading meanwhile, and goes when there is no more', async () => {
    const state = { conversations: Array.from({ length: 25 }, (_, i) => conversation(i + 1)), messages: {} };
    const next = deferred();
    const requests = conversationServer(state, { other: (r) => (r.url.includes('cursor=20') ? next.promise : undefined) });
    const events = userEvent.setup();
    renderPage();
    await waitFor(() => expect(items()).toHaveLength(20));
    expect(screen.getByText('Showing 20 of 25 open conversations')).toBeTruthy();

    await events.click(screen.getByRole('button', { name: 'Load More' }));
    const loading = screen.getByRole('button', { name: 'Loading…' }) as HTMLButtonElement;
    expect(loading.disabled).toBe(true);
    next.release(
      ok({
        conversations: state.conversations.slice(20),
        total: 25,
        pagination: { total: 25, limit: 20, offset: 20, nextCursor: null },
      }),
    );
    await waitFor(() => expect(items()).toHaveLength(25));
    expect(screen.getByText('Showing 25 of 25 open conversations')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load More' })).toBeNull();
    expect(
      requests.some((r) => r.url === urlOf(endpoints.listConversations, {}, { status: 'OPEN', limit: '20', cursor: '20' })),
    ).toBe(true);
  });

  it('says when a filter holds nothing, and points to Settings when no number can text', async () => {
    conversationServer({ conversations: [conversation(1, { status: 'CLOSED' })], messages: {} });
    const events = userEvent.setup();
    const first = renderPage();
    expect(await screen.findByText('No open conversations')).toBeTruthy();
    await events.click(screen.getByRole('button', { name: 'Both' }));
    await waitFor(() => expect(items()).toHaveLength(1));
    first.unmount();

    conversationServer({ conversations: [], messages: {} });
    const second = renderPage('/conversations?status=both');
    expect(await screen.findByText('No conversations yet')).toBeTruthy();
    second.unmount();

    conversationServer({
      conversations: [],
      messages: {},
      channels: [{ ...SMS_CHANNEL, capabilities: { voice: true, sms: false, mms: false } }],
    });
    renderPage();
    expect(await screen.findByText('No SMS channel yet')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Settings → Providers' }).getAttribute('href')).toBe('/settings/providers');
    expect(screen.getByRole('link', { name: 'Settings → Channels' }).getAttribute('href')).toBe('/settings/channels');
  });

  it('a refresh that fails keeps the list and the thread on screen', async () => {
    let down = false;
    conversationServer(
      { conversations: [conversation(1)], messages: { 'cv-1': [message('cv-1', { body: 'Still here' })] } },
      { other: () => (down ? fail(503, 'Service unavailable', 'INTERNAL') : undefined) },
    );
    const { queryClient } = renderPage('/conversations/cv-1');
    await waitFor(() => expect(threadRegion().getByText('Still here')).toBeTruthy());
    down = true;
    await act(() => queryClient.refetchQueries());
    // The query cache tells its observers on the next task: let the page render the failed refresh.
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(queryClient.getQueryState(['conversations', 'thread', 'cv-1'])?.status).toBe('error');
    expect(threadRegion().getByText('Still here')).toBeTruthy();
    expect(items()).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a list that cannot load says so', async () => {
    stubServer((r) =>
      r.url.startsWith(urlOf(endpoints.listConversations))
        ? fail(500, 'The database is asleep', 'INTERNAL')
        : ok({ channels: [] }),
    );
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toBe('The database is asleep');
  });
});

describe('ConversationsPage thread', () => {
  const named = conversation(1, { contact: { id: 'ct-1', name: 'Grace Hopper', phoneNumber: '+14155550201' } });

  it('opens from the address with who, which number, the status buttons and the messages on their sides', async () => {
    conversationServer({
      conversations: [named],
      messages: {
        'cv-1': [
          message('cv-1', { body: 'Is my order ready?' }),
          message('cv-1', {
            direction: 'OUTBOUND',
            body: 'Yes, since this morning',
            status: 'DELIVERED',
            providerStatus: 'delivered',
            sentBy: { id: sampleUser.id, name: sampleUser.name },
          }),
        ],
      },
    });
    renderPage('/conversations/cv-1');
    const pane = await waitFor(threadRegion);
    expect(pane.getByRole('heading', { name: 'Grace Hopper' })).toBeTruthy();
    expect(pane.getByText('(415) 555-0201')).toBeTruthy();
    expect(pane.getByText('via (415) 555-0101')).toBeTruthy();
    expect((pane.getByRole('button', { name: 'Mark Open' }) as HTMLButtonElement).disabled).toBe(true);
    expect((pane.getByRole('button', { name: 'Mark Closed' }) as HTMLButtonElement).disabled).toBe(false);
    expect(pane.getByRole('link', { name: 'Back to conversations' }).getAttribute('href')).toBe('/conversations');
    // Text starts New message with the contact's number (another sending number may be chosen there).
    expect(pane.getByRole('link', { name: 'Text Grace Hopper' }).getAttribute('href')).toBe(
      '/conversations?new=1&to=%2B14155550201',
    );
    // No call widget in this test: Call says why it cannot be placed.
    const call = pane.getByRole('button', { name: 'Call Grace Hopper' }) as HTMLButtonElement;
    expect(call.disabled).toBe(true);
    expect(call.title).toBe(CALLING_NOT_SET_UP);

    const [inbound, outbound] = within(pane.getByRole('list', { name: 'Messages' })).getAllByRole('listitem') as [
      HTMLElement,
      HTMLElement,
    ];
    expect(inbound.textContent).toContain('They said:Is my order ready?');
    expect(inbound.className).toContain('flex-row');
    expect(inbound.className).not.toContain('flex-row-reverse');
    expect(outbound.textContent).toContain('You said:Yes, since this morning');
    expect(outbound.textContent).toContain('Delivered');
    expect(outbound.className).toContain('flex-row-reverse');
    // The list marks the open one.
    await waitFor(() => expect(items()[0]?.getAttribute('aria-current')).toBe('page'));
  });

  it('ages its relative times without reading again, gives each its exact time, and puts each day under a heading', async () => {
    // Local noon, so "yesterday" and "two days ago" are local days in any time zone.
    const now = new Date(2026, 2, 10, 12, 0, 0);
    vi.useFakeTimers({ now, shouldAdvanceTime: true });
    const at = (day: number, hour: number) => new Date(2026, 2, day, hour, 0, 0).toISOString();
    const justNow = new Date(now.getTime() - 15_000).toISOString();
    const requests = conversationServer({
      conversations: [conversation(1, { lastMessageAt: justNow })],
      messages: {
        'cv-1': [
          message('cv-1', { body: 'Is my order ready?', createdAt: at(8, 9) }),
          message('cv-1', { body: 'Any news?', createdAt: at(9, 18) }),
          message('cv-1', { body: 'Hello again', createdAt: at(10, 8) }),
          message('cv-1', {
            type: 'NOTE',
            direction: 'OUTBOUND',
            status: 'SENT',
            body: 'Calling them now',
            createdAt: justNow,
            sentBy: { id: sampleUser.id, name: sampleUser.name },
          }),
        ],
      },
    });
    renderPage('/conversations/cv-1');
    const pane = await waitFor(threadRegion);
    const note = await waitFor(() => pane.getByRole('listitem', { name: 'Internal note by You' }));
    const noteTime = () => note.querySelector('time') as HTMLTimeElement;
    const listTime = () => items()[0]?.querySelector('time') as HTMLTimeElement;
    await waitFor(() => expect(listTime().textContent).toBe('Just now'));
    expect(noteTime().textContent).toBe('Just now');
    // The exact moment for the pointer and for machines.
    expect(noteTime().dateTime).toBe(justNow);
    expect(noteTime().title).toBe(formatDateTime(justNow));
    expect(noteTime().title).toMatch(/2026/);
    expect(listTime().title).toBe(formatDateTime(justNow));

    // Days in order, each once, under a heading that assistive technology hears too; the list's items stay the messages.
    const days = pane.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(days).toEqual([formatDate(at(8, 9)), 'Yesterday', 'Today']);
    expect(within(pane.getByRole('list', { name: 'Messages' })).getAllByRole('listitem')).toHaveLength(4);

    const threadReads = () =>
      requests.filter(
        (r) => r.method === 'GET' && new URL(r.url, 'http://app').pathname === urlOf(endpoints.getConversation, { id: 'cv-1' }),
      ).length;
    const reads = threadReads();
    act(() => vi.advanceTimersByTime(50_000));
    await waitFor(() => expect(noteTime().textContent).toBe('1m ago'));
    expect(listTime().textContent).toBe('1m ago');
    expect(threadReads()).toBe(reads);
    act(() => vi.advanceTimersByTime(10 * 60_000));
    await waitFor(() => expect(noteTime().textContent).toBe('11m ago'));
    expect(listTime().textContent).toBe('11m ago');
  });

  it('says who sent each reply, in the thread and in Details: You for one’s own, a colleague by name, nobody for an old text', async () => {
    const reply = (body: string, sentBy: Message['sentBy']) =>
      message('cv-1', { direction: 'OUTBOUND', body, status: 'DELIVERED', providerStatus: 'delivered', sentBy });
    conversationServer({
      conversations: [named],
      messages: {
        'cv-1': [
          reply('Mine', { id: sampleUser.id, name: sampleUser.name }),
          reply('Theirs', { id: 'u-olivia', name: "Olivia O'Neil" }),
          reply('From before senders were kept', null),
        ],
      },
    });
    const events = userEvent.setup();
    renderPage('/conversations/cv-1');
    const rows = await waitFor(() => within(threadRegion().getByRole('list', { name: 'Messages' })).getAllByRole('listitem'));
    const [mine, theirs, old] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(mine.textContent).toContain('You said:Mine');
    expect(within(mine).getByText('You')).toBeTruthy();
    expect(theirs.textContent).toContain("Olivia O'Neil said:Theirs");
    expect(within(theirs).getByText("Olivia O'Neil")).toBeTruthy();
    expect(theirs.textContent).not.toContain('You');
    expect(old.textContent).toContain('Sent:From before senders were kept');
    expect(old.textContent).not.toContain('You');

    const direction = async (row: HTMLElement) => {
      await events.click(within(row).getByRole('button', { name: 'Message actions' }));
      await events.click(await screen.findByRole('menuitem', { name: 'Details' }));
      const dialog = await screen.findByRole('dialog', { name: 'Message details' });
      const text = within(dialog).getByText('Direction').nextElementSibling?.textContent;
      await events.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      return text;
    };
    expect(await direction(mine)).toBe('Sent by you');
    expect(await direction(theirs)).toBe("Sent by Olivia O'Neil");
    expect(await direction(old)).toBe('Sent');
  });

  it('shows each delivery state, and why a message failed', async () => {
    const out = (status: Message['status'], providerStatus: string | null, over: Partial<Message['smsMessage']> = {}) => {
      const m = message('cv-1', { direction: 'OUTBOUND', body: `${status}/${providerStatus}`, status, providerStatus });
      return { ...m, smsMessage: { ...m.smsMessage, ...over } };
    };
    conversationServer({
      conversations: [named],
      messages: {
        'cv-1': [
          out('QUEUED', null),
          out('SENDING', 'sending'),
          out('SENT', 'sent'),
          out('DELIVERED', 'delivered'),
          out('UNDELIVERED', 'undelivered', { errorCode: 30003, errorMessage: 'Unreachable destination handset' }),
          out('FAILED', null, { errorCode: 21610, errorMessage: 'Attempt to send to unsubscribed recipient' }),
        ],
      },
    });
    renderPage('/conversations/cv-1');
    const rows = await waitFor(() => within(threadRegion().getByRole('list', { name: 'Messages' })).getAllByRole('listitem'));
    const delivery = rows.map((row) => row.querySelector('time')?.nextElementSibling?.textContent);
    expect(delivery).toEqual(['Sending', 'Sending', 'Sent', 'Delivered', 'Failed', 'Failed']);
    expect(rows[4]?.textContent).toContain('Unreachable destination handset (error 30003)');
    expect(rows[5]?.textContent).toContain('Attempt to send to unsubscribed recipient (error 21610)');
  });

  it('offers Retry on a text that failed before Twilio took it, and shows it again as it is sent', async () => {
    const failed = message('cv-1', { direction: 'OUTBOUND', body: 'Table ready', status: 'FAILED', providerStatus: 'failed' });
    failed.smsMessage = { ...failed.smsMessage, providerMessageId: null, errorCode: 20503, errorMessage: 'Service Unavailable' };
    const delivered = message('cv-1', {
      direction: 'OUTBOUND',
      body: 'On my way',
      status: 'DELIVERED',
      providerStatus: 'delivered',
    });
    const requests = conversationServer(
      { conversations: [named], messages: { 'cv-1': [delivered, failed] } },
      {
        other: (r) =>
          r.url.endsWith(`/messages/${failed.id}/retry`)
            ? ok({
                message: {
                  ...failed,
                  status: 'SENT',
                  smsMessage: {
                    ...failed.smsMessage,
                    providerStatus: 'sent',
                    providerMessageId: 'SMnew',
                    errorCode: null,
                    errorMessage: null,
                  },
                },
              })
            : undefined,
      },
    );
    const events = userEvent.setup();
    renderPage('/conversations/cv-1');
    // A delivered text has nothing to send again.
    const retry = await waitFor(() => threadRegion().getByRole('button', { name: 'Retry' }));
    expect(threadRegion().getAllByRole('button', { name: 'Retry' })).toHaveLength(1);
    await events.click(retry);
    await waitFor(() => expect(threadRegion().queryByRole('button', { name: 'Retry' })).toBeNull());
    expect(requests.some((r) => r.method === 'POST' && r.url.endsWith(`/conversations/cv-1/messages/${failed.id}/retry`))).toBe(
      true,
    );
    const rows = within(threadRegion().getByRole('list', { name: 'Messages' })).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[1]?.textContent).toContain('Sent');
    expect(rows[1]?.textContent).not.toContain('Service Unavailable');
  });

  describe('a text undelivered after Twilio took it (docs/product.md: Retry)', () => {
    const undelivered = () => {
      const m = message('cv-1', { direction: 'OUTBOUND', body: 'Your order is ready', status: 'UNDELIVERED' });
      m.smsMessage = {
        ...m.smsMessage,
        providerStatus: 'undelivered',
        errorCode: 30003,
        errorMessage: 'Unreachable destination handset: the phone is off or out of coverage.',
      };
      return m;
    };
    const failedLast = (m: Message) =>
      conversation(1, {
        contact: named.contact,
        lastMessage: { direction: 'OUTBOUND', body: m.body, failed: true },
        lastMessageAt: m.createdAt,
        messageCount: 1,
      });

    it('is marked Failed in the list, and Retry sends a new message with its words; the failed one stays, saying so', async () => {
      const failed = undelivered();
      const resent = message('cv-1', {
        direction: 'OUTBOUND',
        body: failed.body,
        status: 'QUEUED',
        createdAt: new Date(Date.UTC(2026, 0, 2)).toISOString(),
        sentBy: { id: sampleUser.id, name: sampleUser.name },
      });
      const retried = deferred();
      const requests = conversationServer(
        { conversations: [failedLast(failed)], messages: { 'cv-1': [failed] } },
        { other: (r) => (r.url.endsWith(`/messages/${failed.id}/retry`) ? retried.promise : undefined) },
      );
      const events = userEvent.setup();
      renderPage('/conversations/cv-1');
      await waitFor(() => expect(items()).toHaveLength(1));
      expect(items()[0]?.textContent).toContain('Failed:');
      const retry = await waitFor(() => threadRegion().getByRole('button', { name: 'Retry' }));
      expect(threadRegion().getByText(/Unreachable destination handset/)).toBeTruthy();
      await events.click(retry);
      // Pending: pressed again, nothing more is sent.
      expect(threadRegion().getByRole('button', { name: 'Retrying…' })).toHaveProperty('disabled', true);
      await events.click(threadRegion().getByRole('button', { name: 'Retrying…' }));
      retried.release(ok({ message: resent }, 201));
      await waitFor(() => expect(threadRegion().getAllByRole('listitem')).toHaveLength(2));
      const [first, second] = within(threadRegion().getByRole('list', { name: 'Messages' })).getAllByRole('listitem') as [
        HTMLElement,
        HTMLElement,
      ];
      expect(first.textContent).toContain('Your order is ready');
      expect(first.textContent).toContain('Failed');
      expect(first.textContent).toContain('Sent again below');
      expect(second.textContent).toContain('Your order is ready');
      expect(second.textContent).toContain('Sending');
      expect(threadRegion().queryByRole('button', { name: 'Retry' })).toBeNull();
      expect(requests.filter((r) => r.method === 'POST' && r.url.endsWith('/retry'))).toHaveLength(1);
    });

    it('is marked in the list as soon as Twilio reports it undelivered', async () => {
      const sent = message('cv-1', {
        direction: 'OUTBOUND',
        body: 'Your order is ready',
        status: 'SENT',
        providerStatus: 'sent',
      });
      const listed = conversation(1, {
        contact: named.contact,
        lastMessage: { direction: 'OUTBOUND', body: sent.body },
        lastMessageAt: sent.createdAt,
      });
      conversationServer({ conversations: [listed], messages: { 'cv-1': [sent] } });
      const { queryClient } = renderPage();
      await waitFor(() => expect(items()).toHaveLength(1));
      expect(items()[0]?.textContent).not.toContain('Failed');
      const failed = { ...undelivered(), id: sent.id, createdAt: sent.createdAt };
      act(() => applyEvent(queryClient, { type: 'message_status_updated', data: { conversationId: 'cv-1', message: failed } }));
      await waitFor(() => expect(items()[0]?.textContent).toContain('Failed:'));
    });
  });

  it('the message menu works from the keyboard: Details shows the provider facts; there is no Delete (docs/product.md §2.5)', async () => {
    const failed = message('cv-1', { direction: 'OUTBOUND', status: 'FAILED', providerStatus: 'failed' });
    failed.smsMessage = {
      ...failed.smsMessage,
      providerMessageId: 'SMabc123',
      segments: 2,
      errorCode: 30007,
      errorMessage: 'Carrier violation',
    };
    conversationServer({ conversations: [named], messages: { 'cv-1': [failed] } });
    const events = userEvent.setup();
    renderPage('/conversations/cv-1');
    const trigger = await waitFor(() => threadRegion().getByRole('button', { name: 'Message actions' }));

    trigger.focus();
    await events.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['Details']);
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Details'));
    await events.keyboard('{Enter}');

    const dialog = await screen.findByRole('dialog', { name: 'Message details' });
    const facts = Object.fromEntries(
      within(dialog)
        .getAllByRole('term')
        .map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
    );
    expect(facts).toMatchObject({
      'Provider status': 'failed',
      'Provider message ID': 'SMabc123',
      Segments: '2',
      Error: 'Carrier violation (error 30007)',
      Delivery: 'Failed',
    });
    await events.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Focus is back on the button that opened the menu.
    await waitFor(() => expect(document.activeElement).toBe(trigger));
    expect(screen.queryByText(/coming soon/)).toBeNull();
  });

  it('Load earlier messages brings the page before the newest, above it', async () => {
    const messages = Array.from({ length: 5 }, (_, i) => message('cv-1', { body: `Line ${i + 1}` }));
    const requests = conversationServer({ conversations: [named], messages: { 'cv-1': messages } }, { pageSize: 3 });
    const events = userEvent.setup();
    renderPage('/conversations/cv-1');
    const bodies = () =>
      within(threadRegion().getByRole('list', { name: 'Messages' }))
        .getAllByRole('listitem')
        .map((li) => li.querySelector('p:not(.sr-only)')?.textContent);
    await waitFor(() => expect(bodies()).toEqual(['Line 3', 'Line 4', 'Line 5']));
    await events.click(threadRegion().getByRole('button', { name: 'Load earlier messages' }));
    await waitFor(() => expect(bodies()).toEqual(['Line 1', 'Line 2', 'Line 3', 'Line 4', 'Line 5']));
    expect(threadRegion().queryByRole('button', { name: 'Load earlier messages' })).toBeNull();
    expect(requests.some((r) => r.url === urlOf(endpoints.getConversation, { id: 'cv-1' }, { before: '2' }))).toBe(true);
  });

  it('an unknown conversation says it was not found', async () => {
    conversationServer({ conversations: [], messages: {} });
    renderPage('/conversations/cv-404');
    expect(await screen.findByText('This conversation was not found.')).toBeTruthy();
  });

  it('tells the agent when the contact opted out instead of offering Send', async () => {
    conversationServer({ conversations: [{ ...named, optedOut: true }], messages: {} });
    renderPage('/conversations/cv-1');
    expect(
      await screen.findByText(
        'Grace Hopper opted out of texts from (415) 555-0101. You can send again once they text START to this number.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();
    // Notes are the team's own: still possible, without the Reply / Note switch.
    expect(screen.getByRole('textbox', { name: 'Internal note' })).toBeTruthy();
    expect(screen.queryByRole('radio', { name: 'Reply' })).toBeNull();
  });
});

describe('ConversationsPage when texts cannot be sent', () => {
  it.each([
    [
      'CHANNEL_INACTIVE',
      'Texts cannot be sent from (415) 555-0101: it is inactive since Twilio was disconnected. Import the number again in Settings → Providers to send from it.',
    ],
    ['CHANNEL_WITHOUT_SMS', 'Texts cannot be sent from (415) 555-0101: it was imported without SMS.'],
    [
      'PROVIDER_NOT_CONNECTED',
      'Texts cannot be sent from (415) 555-0101: Twilio is not connected. Connect it in Settings → Providers.',
    ],
  ] as const)(
    '%s: says why with the number formatted, and the composer is disabled and described by it',
    async (block, reason) => {
      const requests = conversationServer({
        conversations: [conversation(1)],
        messages: { 'cv-1': [message('cv-1', { body: 'Hello?' })] },
        blocked: { 'cv-1': block },
      });
      renderPage('/conversations/cv-1');
      const notice = await screen.findByText(reason);
      const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
      const send = screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
      expect(box.disabled).toBe(true);
      expect(send.disabled).toBe(true);
      expect(notice.id).not.toBe('');
      expect(box.getAttribute('aria-describedby')?.split(' ')).toContain(notice.id);
      expect(send.getAttribute('aria-describedby')).toBe(notice.id);
      fireEvent.submit(box.closest('form') as HTMLFormElement);
      expect(requests.filter((r) => r.method === 'POST')).toEqual([]);
    },
  );

  it('a send refused because Twilio was disconnected meanwhile reads the thread again: the reason shows, the text is kept', async () => {
    const reason =
      'Texts cannot be sent from (415) 555-0101: it is inactive since Twilio was disconnected. Import the number again in Settings → Providers to send from it.';
    const state: ServerState = { conversations: [conversation(1)], messages: { 'cv-1': [] } };
    conversationServer(state, {
      other: (r) => {
        if (r.method !== 'POST') return undefined;
        state.blocked = { 'cv-1': 'CHANNEL_INACTIVE' };
        return fail(409, reason, 'CHANNEL_INACTIVE');
      },
    });
    const events = userEvent.setup();
    renderPage('/conversations/cv-1');
    const box = (await screen.findByRole('textbox', { name: 'Message' })) as HTMLTextAreaElement;
    await events.type(box, 'Still there?{Enter}');
    expect(await screen.findByText(reason)).toBeTruthy();
    await waitFor(() => expect(box.disabled).toBe(true));
    expect(box.value).toBe('Still there?');
    // Said once, as the reason, not again as an error.
    expect(screen.getAllByText(reason)).toHaveLength(1);
  });
});

describe('ConversationsPage composer', () => {
  const setup = async (other?: (r: Recorded) => Response | Promise<Response> | undefined) => {
    const state: ServerState = { conversations: [conversation(1)], messages: { 'cv-1': [] } };
    const requests = conversationServer(state, { other });
    const events = userEvent.setup();
    renderPage('/conversations/cv-1');
    const box = (await screen.findByRole('textbox', { name: 'Message' })) as HTMLTextAreaElement;
    const send = () => screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    const posts = () => requests.filter((r) => r.method === 'POST');
    return { events, box, send, posts };
  };

  it('a conversation chosen from the list takes the keyboard in its message box; one opened from the address does not', async () => {
    const { events, box } = await setup();
    expect(document.activeElement).not.toBe(box);
    const [item] = items() as [HTMLElement];
    await events.click(item);
    await waitFor(() => expect(document.activeElement).toBe(box));
    await events.keyboard('Thanks');
    expect(box.value).toBe('Thanks');
  });

  it('does not send a blank or whitespace-only message', async () => {
    const { events, box, send, posts } = await setup();
    expect(send().disabled).toBe(true);
    await events.type(box, '   ');
    expect(send().disabled).toBe(true);
    await events.keyboard('{Enter}');
    expect(posts()).toHaveLength(0);
  });

  it('Enter sends, Shift+Enter starts a new line; the box is cleared and the message shows as Sending', async () => {
    const { events, box, posts } = await setup();
    await events.type(box, 'Hello{Shift>}{Enter}{/Shift}there');
    expect(box.value).toBe('Hello\nthere');
    expect(posts()).toHaveLength(0);
    await events.keyboard('{Enter}');
    await waitFor(() => expect(box.value).toBe(''));
    expect(posts().map((r) => r.body)).toEqual([{ body: 'Hello\nthere' }]);
    const sent = await threadRegion().findByText('Hello there', { normalizer: (t) => t.replace(/\s+/g, ' ') });
    expect(sent.closest('li')?.textContent).toContain('Sending');
  });

  it('keeps the text and shows the server message when the send fails', async () => {
    const { events, box, send } = await setup((r) =>
      r.method === 'POST' ? fail(409, 'This number is no longer active. Reconnect its provider.', 'CONFLICT') : undefined,
    );
    await events.type(box, 'Are you there?');
    await events.click(send());
    expect((await screen.findByRole('alert')).textContent).toBe('This number is no longer active. Reconnect its provider.');
    expect(box.value).toBe('Are you there?');
  });

  it('counts characters and segments near one segment and near the limit, and refuses more than 1,600', async () => {
    const { events, box, send } = await setup();
    const counter = () => {
      const id = box.getAttribute('aria-describedby');
      return id ? document.getElementById(id)?.textContent : null;
    };
    await events.type(box, 'Short');
    expect(counter()).toBeNull();
    fireEvent.change(box, { target: { value: 'a'.repeat(150) } });
    expect(counter()).toBe('150 characters · 1 segment');
    fireEvent.change(box, { target: { value: 'a'.repeat(161) } });
    expect(counter()).toBe('161 characters · 2 segments');
    // Outside GSM-7 a segment holds 70.
    fireEvent.change(box, { target: { value: '😀'.repeat(40) } });
    expect(counter()).toBe('80 characters · 2 segments');
    fireEvent.change(box, { target: { value: 'a'.repeat(1_500) } });
    expect(counter()).toBe('1,500 / 1,600 characters · 10 segments');
    expect(send().disabled).toBe(false);
    fireEvent.change(box, { target: { value: 'a'.repeat(1_601) } });
    expect(counter()).toBe('1,601 / 1,600 characters · 11 segments');
    expect(screen.getByRole('alert').textContent).toBe('A message can be at most 1,600 characters.');
    expect(send().disabled).toBe(true);
    expect(box.getAttribute('aria-invalid')).toBe('true');
  });
});

describe('ConversationsPage status and deselection (docs/product.md §4)', () => {
  const open = () => screen.getByRole('button', { name: 'Mark Open' }) as HTMLButtonElement;
  const closed = () => screen.getByRole('button', { name: 'Mark Closed' }) as HTMLButtonElement;
  const noSelection = () => screen.queryByText('No conversation selected');

  const heading = () => threadRegion().getByRole('heading', { level: 2 }).textContent;

  it('closing moves on to the next conversation of the Open list, and deselects once the list has no other', async () => {
    const closing = conversation(1);
    const state = { conversations: [closing, conversation(2)], messages: {} };
    const patch = deferred();
    const requests = conversationServer(state, {
      other: (r) => (r.method === 'PATCH' && r.url.includes('cv-1') ? patch.promise : undefined),
    });
    const events = userEvent.setup();
    renderPage('/conversations/cv-1');
    await waitFor(() => expect(closed().disabled).toBe(false));
    await waitFor(() => expect(screen.getByText('Showing 2 of 2 open conversations')).toBeTruthy());

    await events.click(closed());
    // Pending: both disabled, saying what happens.
    expect((screen.getByRole('button', { name: 'Closing…' }) as HTMLButtonElement).disabled).toBe(true);
    expect(open().disabled).toBe(true);
    closing.status = 'CLOSED';
    patch.release(ok({ conversation: closing }));

    // The next one opens, ready to type in, as if chosen from the list.
    await waitFor(() => expect(heading()).toBe('(415) 555-0202'));
    await waitFor(() => expect(document.activeElement).toBe(threadRegion().getByRole('textbox', { name: 'Message' })));
    expect(noSelection()).toBeNull();
    await waitFor(() => expect(screen.getByText('Showing 1 of 1 open conversation')).toBeTruthy());
    expect(items()[0]?.getAttribute('aria-current')).toBe('page');
    expect(requests.find((r) => r.method === 'PATCH')).toMatchObject({
      url: urlOf(endpoints.updateConversationStatus, { id: 'cv-1' }),
      body: { status: 'CLOSED' },
    });

    // The last open one: nothing left to move on to.
    await waitFor(() => expect(closed().disabled).toBe(false));
    await events.click(closed());
    await waitFor(() => expect(noSelection()).toBeTruthy());
    expect(thread()).toBeNull();
    await waitFor(() => expect(screen.getByText('No open conversations')).toBeTruthy());
  });

  it('closing under Both and opening under Closed move on to the next in the list; opening under Both stays', async () => {
    const reopening = conversation(2, { status: 'CLOSED' });
    conversationServer({ conversations: [conversation(1), reopening], messages: {} });
    const events = userEvent.setup();
    const both = renderPage('/conversations/cv-1?status=both');
    await waitFor(() => expect(closed().disabled).toBe(false));
    await waitFor(() => expect(items()).toHaveLength(2));
    await events.click(closed());
    await waitFor(() => expect(heading()).toBe('(415) 555-0202'));
    both.unmount();

    // Both closed now; the older one opens and leaves the Closed list for the newer.
    const underClosed = renderPage('/conversations/cv-2?status=closed');
    await waitFor(() => expect(open().disabled).toBe(false));
    await waitFor(() => expect(items()).toHaveLength(2));
    await events.click(open());
    await waitFor(() => expect(heading()).toBe('(415) 555-0201'));
    await events.click(open());
    await waitFor(() => expect(noSelection()).toBeTruthy());
    underClosed.unmount();

    reopening.status = 'CLOSED';
    renderPage('/conversations/cv-2?status=both');
    await waitFor(() => expect(open().disabled).toBe(false));
    await events.click(open());
    await waitFor(() => expect(open().disabled).toBe(true));
    expect(closed().disabled).toBe(false);
    expect(noSelection()).toBeNull();
    expect(heading()).toBe('(415) 555-0202');
    await waitFor(() =>
      expect(items().find((a) => a.getAttribute('href') === '/conversations/cv-2?status=both')?.textContent).toMatch(/^Open:/),
    );
  });

  it('a status change that fails says why and keeps the conversation open here', async () => {
    conversationServer(
      { conversations: [conversation(1)], messages: {} },
      {
        other: (r) => (r.method === 'PATCH' ? fail(500, 'Could not save the status', 'INTERNAL') : undefined),
      },
    );
    const events = userEvent.setup();
    renderPage('/conversations/cv-1');
    await waitFor(() => expect(closed().disabled).toBe(false));
    await events.click(closed());
    expect((await screen.findByRole('alert')).textContent).toBe('Could not save the status');
    expect(noSelection()).toBeNull();
    expect(open().disabled).toBe(true);
  });
});

describe('ConversationsPage realtime', () => {
  it('a new message from a new contact, a reply, its delivery and a status change show at once in the list and the thread', async () => {
    const first = conversation(5, { messageCount: 1 });
    const state = { conversations: [first], messages: { 'cv-5': [message('cv-5', { body: 'Hi there' })] } };
    const requests = conversationServer(state);
    const { queryClient } = renderPage('/conversations/cv-5');
    await waitFor(() => expect(threadRegion().getByText('Hi there')).toBeTruthy());
    await waitFor(() => expect(screen.getByText('Showing 1 of 1 open conversation')).toBeTruthy());
    const fetched = requests.length;

    // Someone new texts in: at the top of the list, counted.
    const newcomer = conversation(0, {
      id: 'cv-new',
      lastMessageAt: new Date().toISOString(),
      lastMessage: { direction: 'INBOUND', body: 'First contact' },
    });
    const inbound = message('cv-new', { body: 'First contact' });
    act(() =>
      applyEvent(queryClient, {
        type: 'new_message',
        data: { conversationId: 'cv-new', message: inbound, conversation: newcomer },
      }),
    );
    await waitFor(() => expect(screen.getByText('Showing 2 of 2 open conversations')).toBeTruthy());
    await waitFor(() => expect(items()[0]?.textContent).toContain('First contact'));

    // The open thread gets its new message, and the list its last message and count.
    const reply = message('cv-5', { body: 'Another question', createdAt: new Date().toISOString() });
    const after = {
      ...first,
      lastMessage: { direction: 'INBOUND' as const, body: 'Another question' },
      lastMessageAt: reply.createdAt,
      messageCount: 2,
    };
    act(() =>
      applyEvent(queryClient, { type: 'new_message', data: { conversationId: 'cv-5', message: reply, conversation: after } }),
    );
    await waitFor(() => expect(threadRegion().getByText('Another question')).toBeTruthy());
    // Read out to a screen reader, which the messages present at opening were not.
    expect(threadRegion().getByText('New message from (415) 555-0205: Another question')).toBeTruthy();
    expect(threadRegion().queryByText(/New message from .*Hi there/)).toBeNull();
    await waitFor(() => expect(items()[0]?.textContent).toBe('Open:(415) 555-0205Just nowAnother question2 messages'));
    await waitFor(() => expect(screen.getByText('Showing 2 of 2 open conversations')).toBeTruthy());

    // An agent in another tab answers; its delivery follows; a late, older status does not undo it.
    const answer = message('cv-5', {
      direction: 'OUTBOUND',
      body: 'On it',
      status: 'QUEUED',
      createdAt: new Date(Date.now() + 1000).toISOString(),
    });
    const withAnswer = {
      ...after,
      lastMessage: { direction: 'OUTBOUND' as const, body: 'On it', sentBy: { id: sampleUser.id, name: sampleUser.name } },
      lastMessageAt: answer.createdAt,
      messageCount: 3,
    };
    act(() =>
      applyEvent(queryClient, {
        type: 'message_sent',
        data: { conversationId: 'cv-5', message: answer, conversation: withAnswer },
      }),
    );
    const answerRow = () => threadRegion().getByText('On it').closest('li') as HTMLElement;
    await waitFor(() => expect(answerRow().textContent).toContain('Sending'));
    await waitFor(() => expect(items()[0]?.textContent).toContain('You: On it'));
    const delivered = {
      ...answer,
      status: 'DELIVERED' as const,
      smsMessage: { ...answer.smsMessage, providerStatus: 'delivered' },
    };
    act(() => applyEvent(queryClient, { type: 'message_status_updated', data: { conversationId: 'cv-5', message: delivered } }));
    await waitFor(() => expect(answerRow().textContent).toContain('Delivered'));
    const late = { ...answer, status: 'SENT' as const, smsMessage: { ...answer.smsMessage, providerStatus: 'sent' } };
    act(() => applyEvent(queryClient, { type: 'message_status_updated', data: { conversationId: 'cv-5', message: late } }));

    // Someone closes it elsewhere: out of the Open list, the thread's buttons follow; the reader is not thrown out.
    const closedElsewhere = { ...withAnswer, status: 'CLOSED' as const };
    act(() =>
      applyEvent(queryClient, {
        type: 'conversation_status_updated',
        data: { conversationId: 'cv-5', status: 'CLOSED', conversation: closedElsewhere },
      }),
    );
    await waitFor(() => expect(screen.getByText('Showing 1 of 1 open conversation')).toBeTruthy());
    await waitFor(() => expect((screen.getByRole('button', { name: 'Mark Open' }) as HTMLButtonElement).disabled).toBe(false));
    await waitFor(() => expect((screen.getByRole('button', { name: 'Mark Closed' }) as HTMLButtonElement).disabled).toBe(true));
    // Rendered after the late status: it did not undo Delivered.
    expect(answerRow().textContent).toContain('Delivered');

    // A text reopens it: back in the Open list.
    act(() =>
      applyEvent(queryClient, {
        type: 'conversation_reopened',
        data: { conversationId: 'cv-5', conversation: { ...closedElsewhere, status: 'OPEN' } },
      }),
    );
    await waitFor(() => expect(screen.getByText('Showing 2 of 2 open conversations')).toBeTruthy());
    // All of it without asking the server again, but to mark read the text that arrived in the open thread.
    expect(requests.slice(fetched).map((r) => `${r.method} ${new URL(r.url, 'http://app').pathname}`)).toEqual([
      callLine(endpoints.markConversationRead, { id: 'cv-5' }),
    ]);
  });
});

describe('ConversationsPage reads older than the socket', () => {
  const isList = (r: Recorded) => isCall(r, endpoints.listConversations) && r.url.includes('?');
  const isThread = (id: string) => (r: Recorded) =>
    r.method === 'GET' && r.url.startsWith(urlOf(endpoints.getConversation, { id }));
  const listAnswer = (conversations: Conversation[]) =>
    ok({
      conversations,
      total: conversations.length,
      pagination: { total: conversations.length, limit: 20, offset: 0, nextCursor: null },
    });
  const threadAnswer = (c: Conversation, messages: Message[]) =>
    ok({
      conversation: {
        ...c,
        members: [],
        sendingBlockedBy: null,
        picturesBlockedBy: null,
        messages,
        olderCursor: null,
      } satisfies ConversationDetail,
    });
  /** Holds the answers to the requests `matches` picks until the test releases them. */
  function holding(matches: (r: Recorded) => boolean) {
    let held: ReturnType<typeof deferred> | null = null;
    return {
      other: (r: Recorded) => (held && matches(r) ? held.promise : undefined),
      hold: () => {
        held = deferred();
      },
      release: (response: Response) => {
        held?.release(response);
        held = null;
      },
    };
  }

  it('the list read straight after a reply, answered by an index that has not caught up, keeps what the socket delivered', async () => {
    const first = conversation(5);
    const state = { conversations: [first], messages: { 'cv-5': [message('cv-5', { body: 'Hi there' })] } };
    const lists = holding(isList);
    const requests = conversationServer(state, { other: lists.other });
    const events = userEvent.setup();
    const { queryClient } = renderPage('/conversations/cv-5');
    await waitFor(() => expect(items()[0]?.textContent).toBe('Open:(415) 555-02055m agoMessage 51 message'));
    const box = await screen.findByRole('textbox', { name: 'Message' });
    const listReads = requests.filter(isList).length;

    lists.hold();
    await events.type(box, 'On my way{Enter}');
    // The send's answer reads the list again; the socket's message_sent comes before that read's answer.
    await waitFor(() => expect(requests.filter(isList).length).toBe(listReads + 1));
    const sent = state.messages['cv-5'].at(-1) as Message;
    const after: Conversation = {
      ...first,
      lastMessage: { direction: 'OUTBOUND', body: 'On my way', sentBy: { id: sampleUser.id, name: sampleUser.name } },
      lastMessageAt: new Date().toISOString(),
      messageCount: 2,
    };
    act(() =>
      applyEvent(queryClient, { type: 'message_sent', data: { conversationId: 'cv-5', message: sent, conversation: after } }),
    );
    await waitFor(() => expect(items()[0]?.textContent).toBe('Open:(415) 555-0205Just nowYou: On my way2 messages'));

    // The index still has the conversation as it was before the reply.
    lists.release(listAnswer([first]));
    await waitFor(() => expect(queryClient.isFetching({ queryKey: conversationKeys.lists })).toBe(0));
    expect(items()[0]?.textContent).toBe('Open:(415) 555-0205Just nowYou: On my way2 messages');
    expect(screen.getByText('Showing 1 of 1 open conversation')).toBeTruthy();
  });

  it('a thread read that left before a delivery and a new text keeps both: Delivered stays, the new text stays', async () => {
    const first = conversation(5);
    const question = message('cv-5', { body: 'Is it ready?' });
    const answer = message('cv-5', { direction: 'OUTBOUND', body: 'Yes', status: 'SENT', providerStatus: 'sent' });
    const state = { conversations: [first], messages: { 'cv-5': [question, answer] } };
    const threads = holding(isThread('cv-5'));
    conversationServer(state, { other: threads.other });
    const { queryClient } = renderPage('/conversations/cv-5');
    const answerRow = () => threadRegion().getByText('Yes').closest('li') as HTMLElement;
    await waitFor(() => expect(answerRow().textContent).toContain('Sent'));

    // A refresh leaves; meanwhile Twilio reports the delivery and the contact texts again.
    threads.hold();
    act(() => void queryClient.invalidateQueries({ queryKey: conversationKeys.thread('cv-5') }));
    const delivered: Message = {
      ...answer,
      status: 'DELIVERED',
      smsMessage: { ...answer.smsMessage, providerStatus: 'delivered' },
    };
    const thanks = message('cv-5', { body: 'Thanks!', createdAt: new Date().toISOString() });
    const after: Conversation = {
      ...first,
      lastMessage: { direction: 'INBOUND', body: 'Thanks!' },
      lastMessageAt: thanks.createdAt,
      messageCount: 3,
    };
    act(() => {
      applyEvent(queryClient, { type: 'message_status_updated', data: { conversationId: 'cv-5', message: delivered } });
      applyEvent(queryClient, { type: 'new_message', data: { conversationId: 'cv-5', message: thanks, conversation: after } });
    });
    await waitFor(() => expect(answerRow().textContent).toContain('Delivered'));
    expect(threadRegion().getByText('Thanks!')).toBeTruthy();

    // The refresh answers with what it read before either.
    threads.release(threadAnswer(first, [question, answer]));
    await waitFor(() => expect(queryClient.isFetching({ queryKey: conversationKeys.thread('cv-5') })).toBe(0));
    expect(answerRow().textContent).toContain('Delivered');
    expect(
      within(threadRegion().getByRole('list', { name: 'Messages' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([expect.stringContaining('Is it ready?'), expect.stringContaining('Yes'), expect.stringContaining('Thanks!')]);
  });

  it('a conversation the socket closed stays out of the Open list when the index still lists it as open', async () => {
    const [one, two] = [conversation(1), conversation(2)];
    const state = { conversations: [one, two], messages: {} };
    const lists = holding(isList);
    conversationServer(state, { other: lists.other });
    const { queryClient } = renderPage('/conversations');
    await waitFor(() => expect(screen.getByText('Showing 2 of 2 open conversations')).toBeTruthy());

    // Same activity: opening and closing leave lastMessageAt as it is.
    const closed = { ...one, status: 'CLOSED' as const };
    act(() =>
      applyEvent(queryClient, {
        type: 'conversation_status_updated',
        data: { conversationId: 'cv-1', status: 'CLOSED', conversation: closed },
      }),
    );
    await waitFor(() => expect(screen.getByText('Showing 1 of 1 open conversation')).toBeTruthy());

    lists.hold();
    act(() => void queryClient.invalidateQueries({ queryKey: conversationKeys.lists }));
    lists.release(listAnswer([one, two]));
    await waitFor(() => expect(queryClient.isFetching({ queryKey: conversationKeys.lists })).toBe(0));
    expect(items().map((a) => a.getAttribute('href'))).toEqual(['/conversations/cv-2']);
    expect(screen.getByText('Showing 1 of 1 open conversation')).toBeTruthy();
  });

  it('a read that is newer than the cache still replaces it: a delivery and a text the socket missed show', async () => {
    const first = conversation(5);
    const answer = message('cv-5', { direction: 'OUTBOUND', body: 'Yes', status: 'SENT', providerStatus: 'sent' });
    const state = { conversations: [first], messages: { 'cv-5': [answer] } };
    conversationServer(state);
    const { queryClient } = renderPage('/conversations/cv-5');
    const answerRow = () => threadRegion().getByText('Yes').closest('li') as HTMLElement;
    await waitFor(() => expect(answerRow().textContent).toContain('Sent'));
    await waitFor(() => expect(items()[0]?.textContent).toContain('Message 5'));

    // While the socket was down: the text was delivered and the contact wrote back.
    const missed = message('cv-5', { body: 'Missed while away', createdAt: new Date().toISOString() });
    state.messages['cv-5'] = [
      { ...answer, status: 'DELIVERED', smsMessage: { ...answer.smsMessage, providerStatus: 'delivered' } },
      missed,
    ];
    state.conversations = [
      {
        ...first,
        lastMessage: { direction: 'INBOUND', body: 'Missed while away' },
        lastMessageAt: missed.createdAt,
        messageCount: 2,
      },
    ];
    act(() => void queryClient.invalidateQueries({ queryKey: conversationKeys.all }));
    await waitFor(() => expect(answerRow().textContent).toContain('Delivered'));
    expect(threadRegion().getByText('Missed while away')).toBeTruthy();
    await waitFor(() => expect(items()[0]?.textContent).toBe('Open:(415) 555-0205Just nowMissed while away2 messages'));
  });
});

describe('ConversationsPage team inbox', () => {
  const grace: TeamUser = {
    id: 'u2',
    name: 'Grace Hopper',
    email: 'grace@example.com',
    role: 'AGENT',
    avatarUrl: null,
    lastActiveAt: null,
  };
  const ada: TeamUser = { ...grace, id: sampleUser.id, name: sampleUser.name, email: sampleUser.email };
  const path = (r: Recorded) => `${r.method} ${new URL(r.url, 'http://app').pathname}`;
  const reads = (requests: Recorded[]) => requests.filter((r) => path(r).endsWith('/read'));

  /** jsdom's tab is always visible: this one can be sent to the background and back. */
  function tabVisibility() {
    let state: DocumentVisibilityState = 'visible';
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
    return {
      set(next: DocumentVisibilityState) {
        state = next;
        act(() => void document.dispatchEvent(new Event('visibilitychange')));
      },
      restore: () => Reflect.deleteProperty(document, 'visibilityState'),
    };
  }

  it('shows unread conversations in bold with their count, and whose each one is', async () => {
    conversationServer({
      conversations: [
        conversation(1, { unreadCount: 3, assignee: { id: 'u2', name: 'Grace Hopper' } }),
        conversation(2, { messageCount: 2 }),
      ],
      messages: {},
    });
    renderPage();
    await waitFor(() => expect(items()).toHaveLength(2));
    const [unread, read] = items() as [HTMLElement, HTMLElement];
    // The owner's initial is decorative; the name is read out.
    expect(unread.textContent).toBe('Open:(415) 555-02011m agoMessage 13 unreadGAssigned to Grace Hopper');
    expect(within(unread).getByText('(415) 555-0201').className).toContain('font-bold');
    expect(within(unread).getByTitle('Assigned to Grace Hopper').textContent).toContain('G');
    // Read, unassigned: the message count as before, no owner named, a neutral mark for the pointer.
    expect(read.textContent).toBe('Open:(415) 555-02022m agoMessage 22 messages');
    expect(within(read).getByText('(415) 555-0202').className).not.toContain('font-bold');
    expect(within(read).getByTitle('Unassigned').getAttribute('aria-hidden')).toBe('true');
  });

  it('filters Mine / Unassigned / All beside the status, from the keyboard, kept in the address', async () => {
    const mine = conversation(1, { assignee: { id: sampleUser.id, name: sampleUser.name } });
    const theirs = conversation(2, { assignee: { id: 'u2', name: 'Grace Hopper' } });
    const nobodys = conversation(3);
    const requests = conversationServer({ conversations: [mine, theirs, nobodys], messages: {} });
    const events = userEvent.setup();
    renderPage('/conversations?assignee=me');
    await waitFor(() => expect(items()).toHaveLength(1));
    expect(pressed('Mine')).toBe('true');
    expect(pressed('All')).toBe('false');
    expect(items()[0]?.getAttribute('href')).toBe('/conversations/cv-1?assignee=me');

    screen.getByRole('button', { name: 'Unassigned' }).focus();
    await events.keyboard('{Enter}');
    await waitFor(() => expect(items().map((a) => a.getAttribute('href'))).toEqual(['/conversations/cv-3?assignee=unassigned']));
    expect(pressed('Unassigned')).toBe('true');

    await events.click(screen.getByRole('button', { name: 'Closed' }));
    await waitFor(() => expect(screen.getByText('Showing 0 of 0 closed conversations')).toBeTruthy());
    await events.click(screen.getByRole('button', { name: 'All' }));
    await events.click(screen.getByRole('button', { name: 'Open' }));
    await waitFor(() => expect(items()).toHaveLength(3));
    expect(requests.map((r) => r.url)).toEqual(
      expect.arrayContaining([
        urlOf(endpoints.listConversations, {}, { status: 'OPEN', limit: '20', assignee: 'me' }),
        urlOf(endpoints.listConversations, {}, { status: 'OPEN', limit: '20', assignee: 'unassigned' }),
        urlOf(endpoints.listConversations, {}, { status: 'CLOSED', limit: '20', assignee: 'unassigned' }),
        urlOf(endpoints.listConversations, {}, { status: 'OPEN', limit: '20' }),
      ]),
    );
  });

  it('assigns from the thread header: the members and Unassigned, disabled on its way, then in the list', async () => {
    const answer = deferred();
    const requests = conversationServer(
      { conversations: [conversation(1)], messages: { 'cv-1': [message('cv-1')] }, users: [grace, ada] },
      {
        other: (r) =>
          path(r).endsWith('/assignee') && (r.body as { userId: string }).userId === 'u2' ? answer.promise : undefined,
      },
    );
    const events = userEvent.setup();
    renderPage('/conversations/cv-1');
    const picker = (await waitFor(() => threadRegion().getByRole('combobox', { name: 'Assignee' }))) as HTMLSelectElement;
    await waitFor(() =>
      expect(
        within(picker)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Unassigned', 'Ada Lovelace', 'Grace Hopper']),
    );
    expect(picker.value).toBe('');

    await events.selectOptions(picker, 'Grace Hopper');
    expect(picker.disabled).toBe(true);
    expect(picker.value).toBe('u2');
    answer.release(ok({ conversation: conversation(1, { assignee: { id: 'u2', name: 'Grace Hopper' } }) }));
    await waitFor(() => expect(picker.disabled).toBe(false));
    expect(picker.value).toBe('u2');
    await waitFor(() => expect(within(list()).getByTitle('Assigned to Grace Hopper')).toBeTruthy());
    expect(requests.filter((r) => path(r).endsWith('/assignee')).map((r) => r.body)).toEqual([{ userId: 'u2' }]);

    await events.selectOptions(picker, 'Unassigned');
    await waitFor(() => expect(within(list()).getByTitle('Unassigned')).toBeTruthy());
    expect(picker.value).toBe('');
  });

  it('a refused assignment says why and the picker shows the owner as it is', async () => {
    conversationServer(
      { conversations: [conversation(1)], messages: { 'cv-1': [message('cv-1')] }, users: [grace] },
      // An answer that is not the API's envelope: the picker's own words.
      { other: (r) => (path(r).endsWith('/assignee') ? new Response('Bad gateway', { status: 502 }) : undefined) },
    );
    const events = userEvent.setup();
    renderPage('/conversations/cv-1');
    const picker = (await waitFor(() => threadRegion().getByRole('combobox', { name: 'Assignee' }))) as HTMLSelectElement;
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(2));
    await events.selectOptions(picker, 'Grace Hopper');
    expect((await threadRegion().findByRole('alert')).textContent).toBe('Failed to assign conversation');
    expect(picker.value).toBe('');
  });

  it('never offers a removed member: one removed elsewhere leaves the picker at once; an owner not in the team cannot be picked', async () => {
    const theirs = conversation(2, { assignee: { id: 'u9', name: 'Removed Agent' } });
    const state = {
      conversations: [conversation(1), theirs],
      messages: { 'cv-1': [message('cv-1')], 'cv-2': [message('cv-2')] },
      users: [grace, ada],
    };
    conversationServer(state);
    const { queryClient } = renderPage('/conversations/cv-1');
    const picker = (await waitFor(() => threadRegion().getByRole('combobox', { name: 'Assignee' }))) as HTMLSelectElement;
    const offered = () =>
      within(threadRegion().getByRole('combobox', { name: 'Assignee' }))
        .getAllByRole('option')
        .filter((o) => !(o as HTMLOptionElement).disabled)
        .map((o) => o.textContent);
    await waitFor(() => expect(offered()).toEqual(['Unassigned', 'Ada Lovelace', 'Grace Hopper']));

    // Grace is removed in another tab: her name leaves the choices without a reload.
    state.users = [ada];
    act(() => applyEvent(queryClient, { type: 'member_removed', data: { userId: 'u2' } }));
    await waitFor(() => expect(offered()).toEqual(['Unassigned', 'Ada Lovelace']));
    expect(picker.value).toBe('');

    // A conversation still showing someone who left (their move on its way): named, not offered.
    await userEvent.setup().click(within(list()).getByRole('link', { name: /555-0202/ }));
    await waitFor(() =>
      expect((threadRegion().getByRole('combobox', { name: 'Assignee' }) as HTMLSelectElement).value).toBe('u9'),
    );
    const current = within(threadRegion().getByRole('combobox', { name: 'Assignee' })).getByRole('option', {
      name: 'Removed Agent (removed)',
    }) as HTMLOptionElement;
    expect(current.disabled).toBe(true);
    expect(offered()).toEqual(['Unassigned', 'Ada Lovelace']);
  });

  it('offers only the members who see the conversation; an owner outside its inbox is named, not offered; a refusal says why', async () => {
    const alan: TeamUser = { ...grace, id: 'u3', name: 'Alan Turing', email: 'alan@example.com' };
    const refusal = "Grace Hopper is not a member of this conversation's inbox, so they cannot be assigned it.";
    // Alan is in another inbox: the server leaves him out of who may be assigned (docs/product.md: Who sees what).
    const mayBeAssigned = [ada, grace].map(({ id, name }) => ({ id, name }));
    conversationServer(
      {
        conversations: [conversation(1), conversation(2, { assignee: { id: alan.id, name: alan.name } })],
        messages: { 'cv-1': [message('cv-1')], 'cv-2': [message('cv-2')] },
        users: [grace, ada, alan],
        members: { 'cv-1': mayBeAssigned, 'cv-2': mayBeAssigned },
      },
      // Grace left the inbox after the thread was read.
      { other: (r) => (path(r).endsWith('/cv-1/assignee') ? fail(409, refusal, 'CONFLICT') : undefined) },
    );
    const events = userEvent.setup();
    renderPage('/conversations/cv-1');
    const picker = () => threadRegion().getByRole('combobox', { name: 'Assignee' }) as HTMLSelectElement;
    const options = () =>
      within(picker())
        .getAllByRole('option')
        .map((o) => [o.textContent, (o as HTMLOptionElement).disabled]);
    await waitFor(() =>
      expect(options()).toEqual([
        ['Unassigned', false],
        ['Ada Lovelace', false],
        ['Grace Hopper', false],
      ]),
    );

    await events.selectOptions(picker(), 'Grace Hopper');
    expect((await threadRegion().findByRole('alert')).textContent).toBe(refusal);
    await waitFor(() => expect(picker().value).toBe(''));

    // Assigned before he left the inbox: shown as the owner, and why nobody can pick him again.
    await events.click(within(list()).getByRole('link', { name: /555-0202/ }));
    await waitFor(() => expect(picker().value).toBe(alan.id));
    expect(options()).toEqual([
      ['Unassigned', false],
      ['Alan Turing (not in this inbox)', true],
      ['Ada Lovelace', false],
      ['Grace Hopper', false],
    ]);
  });

  it("offers in a note's @ list only the teammates who see the conversation", async () => {
    const alan: TeamUser = { ...grace, id: 'u3', name: 'Alan Turing', email: 'alan@example.com' };
    conversationServer({
      conversations: [conversation(1)],
      messages: { 'cv-1': [message('cv-1')] },
      users: [grace, ada, alan],
      members: { 'cv-1': [ada, grace].map(({ id, name }) => ({ id, name })) },
    });
    const events = userEvent.setup();
    renderPage('/conversations/cv-1');
    await events.click(await waitFor(() => threadRegion().getByRole('radio', { name: 'Note' })));
    await events.click(threadRegion().getByRole('textbox', { name: 'Internal note' }));
    await events.keyboard('Please @');
    const picker = await waitFor(() => threadRegion().getByRole('listbox', { name: 'Mention a teammate' }));
    // Not Alan, who does not see it; not the author.
    expect(
      within(picker)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['GGrace Hopper']);
    await events.keyboard('Al');
    await waitFor(() => expect(threadRegion().queryByRole('listbox', { name: 'Mention a teammate' })).toBeNull());
  });

  it('a contact renamed or deleted by someone else shows at once in the list and the open thread', async () => {
    const named = conversation(1, { contact: { id: 'ct-1', name: 'Old Name', phoneNumber: '+14155550201' } });
    conversationServer({ conversations: [named, conversation(2)], messages: { 'cv-1': [message('cv-1')] } });
    const { queryClient } = renderPage('/conversations/cv-1');
    const title = () => threadRegion().getByRole('heading', { level: 2 }).textContent;
    await waitFor(() => expect(title()).toBe('Old Name'));
    await waitFor(() => expect(items()[0]?.textContent).toContain('Old Name'));
    const untouched = items()[1]?.textContent;

    const contact = {
      id: 'ct-1',
      name: 'Renamed Person',
      phoneNumber: '+14155550201',
      email: null,
      notes: null,
      callCount: 0,
      conversationCount: 1,
      lastContactAt: null,
      lastConversationId: 'cv-1',
      createdAt: minutesAgo(60),
    };
    act(() => applyEvent(queryClient, { type: 'contact_changed', data: { contactId: 'ct-1', contact } }));
    await waitFor(() => expect(title()).toBe('Renamed Person'));
    expect(items()[0]?.textContent).toContain('Renamed Person');
    expect(items()[0]?.textContent).not.toContain('Old Name');
    expect(items()[1]?.textContent).toBe(untouched);
    expect(screen.getByText('Showing 2 of 2 open conversations')).toBeTruthy();

    // Deleted: the conversation stays, showing the number.
    act(() => applyEvent(queryClient, { type: 'contact_changed', data: { contactId: 'ct-1', contact: null } }));
    await waitFor(() => expect(title()).toBe('(415) 555-0201'));
    expect(items()[0]?.textContent).toContain('(415) 555-0201');
  });

  it('marks read once when opened with unread texts, once per text arriving while read, and not while the tab is hidden', async () => {
    const tab = tabVisibility();
    try {
      const unread = conversation(1, { unreadCount: 2, messageCount: 2 });
      const requests = conversationServer({ conversations: [unread], messages: { 'cv-1': [message('cv-1'), message('cv-1')] } });
      const { queryClient } = renderPage('/conversations/cv-1');
      await waitFor(() => expect(reads(requests)).toHaveLength(1));
      await waitFor(() => expect(items()[0]?.textContent).toContain('2 messages'));
      expect(reads(requests)).toHaveLength(1);

      const arrive = (n: number) => {
        const text = message('cv-1', { body: `Arrival ${n}`, createdAt: new Date(Date.now() + n * 1000).toISOString() });
        const shared = { ...unread, lastMessageAt: text.createdAt, messageCount: 2 + n } as Partial<Conversation>;
        delete shared.unreadCount;
        act(() =>
          applyEvent(queryClient, {
            type: 'new_message',
            data: { conversationId: 'cv-1', message: text, conversation: shared as Omit<Conversation, 'unreadCount'> },
          }),
        );
      };
      // On screen, tab visible: it never counts as unread, and is marked read.
      arrive(1);
      await waitFor(() => expect(reads(requests)).toHaveLength(2));
      expect(items()[0]?.textContent).not.toContain('unread');

      // In the background: counted, not marked; back in front: marked once.
      tab.set('hidden');
      arrive(2);
      await waitFor(() => expect(items()[0]?.textContent).toContain('1 unread'));
      expect(reads(requests)).toHaveLength(2);
      tab.set('visible');
      await waitFor(() => expect(reads(requests)).toHaveLength(3));
      await waitFor(() => expect(items()[0]?.textContent).not.toContain('unread'));
      expect(reads(requests)).toHaveLength(3);
    } finally {
      tab.restore();
    }
  });

  it('writes a note with the Reply / Note switch: amber, its own draft, sent as a note and shown as one', async () => {
    const requests = conversationServer({
      conversations: [conversation(1)],
      messages: { 'cv-1': [message('cv-1', { body: 'Where is my order?' })] },
      users: [grace, ada],
    });
    const events = userEvent.setup();
    renderPage('/conversations/cv-1');
    const reply = await waitFor(() => threadRegion().getByRole('radio', { name: 'Reply' }));
    expect((reply as HTMLInputElement).checked).toBe(true);
    await events.type(threadRegion().getByRole('textbox', { name: 'Message' }), 'Checking now');

    // Two native radios: the browser's arrow keys move between them (test/e2e/team-inbox.test.ts); here a click.
    await events.click(threadRegion().getByRole('radio', { name: 'Note' }));
    const noteBox = threadRegion().getByRole('textbox', { name: 'Internal note' }) as HTMLTextAreaElement;
    expect(noteBox.placeholder).toBe('Write an internal note… @mention a teammate');
    expect(noteBox.closest('form')?.className).toContain('bg-warning-soft');
    expect(noteBox.value).toBe('');
    await events.type(noteBox, 'Courier is late, @Grace Hopper can you call them?');
    await events.click(threadRegion().getByRole('radio', { name: 'Reply' }));
    expect((threadRegion().getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe('Checking now');
    await events.click(threadRegion().getByRole('radio', { name: 'Note' }));
    await events.click(threadRegion().getByRole('button', { name: 'Add note' }));

    const card = await waitFor(() => threadRegion().getByRole('listitem', { name: 'Internal note by You' }));
    expect(card.textContent).toContain('Internal note');
    expect(within(card).getByText('@Grace Hopper').tagName).toBe('MARK');
    expect(requests.filter((r) => path(r) === callLine(endpoints.addNote, { id: 'cv-1' })).map((r) => r.body)).toEqual([
      { body: 'Courier is late, @Grace Hopper can you call them?' },
    ]);
    // Nothing went to the contact; the reply's draft is still there.
    expect(requests.some((r) => path(r) === callLine(endpoints.sendMessage, { id: 'cv-1' }))).toBe(false);
    await waitFor(() =>
      expect((threadRegion().getByRole('textbox', { name: 'Internal note' }) as HTMLTextAreaElement).value).toBe(''),
    );
    await events.click(threadRegion().getByRole('radio', { name: 'Reply' }));
    expect((threadRegion().getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe('Checking now');
  });

  it('offers the teammates on "@" in a note: arrow keys, Enter, Escape and the mouse; picks show as chips and go by id', async () => {
    const alan: TeamUser = { ...grace, id: 'u3', name: 'Alan Turing', email: 'alan@example.com' };
    const namesake: TeamUser = { ...grace, id: 'u4', email: 'grace.h@example.com' };
    const requests = conversationServer({
      conversations: [conversation(1)],
      messages: { 'cv-1': [message('cv-1', { body: 'Where is my order?' })] },
      users: [grace, ada, alan, namesake],
    });
    const events = userEvent.setup();
    renderPage('/conversations/cv-1');
    await events.click(await waitFor(() => threadRegion().getByRole('radio', { name: 'Note' })));
    const box = threadRegion().getByRole('textbox', { name: 'Internal note' }) as HTMLTextAreaElement;
    const picker = () => threadRegion().queryByRole('listbox', { name: 'Mention a teammate' });
    const offered = () => within(picker() as HTMLElement).getAllByRole('option');
    const highlighted = () => offered().find((o) => o.getAttribute('aria-selected') === 'true')?.textContent;

    // "@": every teammate who can see it, by name, not the author; the box keeps the keyboard.
    await events.click(box);
    await events.keyboard('Please @');
    await waitFor(() => expect(picker()).toBeTruthy());
    expect(offered().map((o) => o.textContent)).toEqual(['AAlan Turing', 'GGrace Hopper', 'GGrace Hopper']);
    expect(box.getAttribute('aria-controls')).toBe(picker()?.id);
    expect(highlighted()).toBe('AAlan Turing');
    expect(box.getAttribute('aria-activedescendant')).toBe(offered()[0]?.id);

    // Letters narrow it; arrow keys move (round the end); Enter picks instead of adding the note.
    await events.keyboard('gr');
    await waitFor(() => expect(offered()).toHaveLength(2));
    await events.keyboard('{ArrowDown}');
    expect(highlighted()).toBe('GGrace Hopper');
    expect(box.getAttribute('aria-activedescendant')).toBe(offered()[1]?.id);
    await events.keyboard('{ArrowDown}{ArrowUp}{ArrowUp}{ArrowUp}');
    expect(box.getAttribute('aria-activedescendant')).toBe(offered()[1]?.id);
    await events.keyboard('{Enter}');
    expect(box.value).toBe('Please @Grace Hopper ');
    expect(picker()).toBeNull();
    expect(box.selectionStart).toBe(box.value.length);
    expect(document.activeElement).toBe(box);
    // Who the note will tell, as a chip, before it is added.
    expect(threadRegion().getByText('@Grace Hopper', { selector: 'span' })).toBeTruthy();

    // Escape closes the list and keeps what was typed; the mouse picks too.
    await events.keyboard('and @al');
    await waitFor(() => expect(offered()).toHaveLength(1));
    await events.keyboard('{Escape}');
    expect(picker()).toBeNull();
    expect(box.value).toBe('Please @Grace Hopper and @al');
    // Typed again, "@" offers the list again.
    await events.keyboard('{Backspace}{Backspace}{Backspace}@');
    await waitFor(() => expect(picker()).toBeTruthy());
    await events.click(within(picker() as HTMLElement).getByRole('option', { name: 'Alan Turing' }));
    expect(box.value).toBe('Please @Grace Hopper and @Alan Turing ');
    expect(document.activeElement).toBe(box);

    // A first name alone tells nobody: said before the note is added, and tied to the box.
    await events.keyboard('cc @Grace, thanks');
    const flag = threadRegion().getByRole('status', { name: '' });
    expect(flag.textContent).toBe('“@Grace” matches no teammate and will notify nobody. Type @ and pick a name from the list.');
    expect(box.getAttribute('aria-describedby')?.split(' ')).toContain(flag.id);

    await events.keyboard('{Enter}');
    const card = await waitFor(() => threadRegion().getByRole('listitem', { name: 'Internal note by You' }));
    // The picked Grace Hopper, not her namesake; the mentions show as chips.
    expect(requests.filter((r) => r.url.endsWith('/notes')).map((r) => r.body)).toEqual([
      { body: 'Please @Grace Hopper and @Alan Turing cc @Grace, thanks', mentionIds: ['u4', 'u3'] },
    ]);
    const chips = within(card).getAllByText(/^@(Grace Hopper|Alan Turing)$/);
    expect(chips.map((c) => [c.tagName, c.className.includes('rounded-full')])).toEqual([
      ['MARK', true],
      ['MARK', true],
    ]);
    await waitFor(() => expect(box.value).toBe(''));
    expect(threadRegion().queryByRole('status', { name: '' })).toBeNull();
  });

  it("shows a colleague's note as a note card by them, not a bubble, and refuses one over the note limit", async () => {
    const note = message('cv-1', {
      type: 'NOTE',
      direction: 'OUTBOUND',
      status: 'SENT',
      body: 'Over to you @Ada Lovelace',
      sentBy: { id: 'u2', name: 'Grace Hopper' },
      mentions: [{ id: sampleUser.id, name: sampleUser.name }],
    });
    conversationServer({ conversations: [conversation(1)], messages: { 'cv-1': [message('cv-1'), note] } });
    const events = userEvent.setup();
    renderPage('/conversations/cv-1');
    const card = await waitFor(() => threadRegion().getByRole('listitem', { name: 'Internal note by Grace Hopper' }));
    expect(within(card).getByText('@Ada Lovelace').tagName).toBe('MARK');
    expect(within(card).queryByRole('button', { name: 'Message actions' })).toBeNull();

    await events.click(threadRegion().getByRole('radio', { name: 'Note' }));
    const box = threadRegion().getByRole('textbox', { name: 'Internal note' });
    fireEvent.change(box, { target: { value: 'x'.repeat(MAX_NOTE_LENGTH + 1) } });
    expect(threadRegion().getByRole('alert').textContent).toBe('A note can be at most 4,000 characters.');
    expect((threadRegion().getByRole('button', { name: 'Add note' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('ConversationsPage pictures', () => {
  const PICTURES: Message['media'] = [
    { contentType: 'image/png', url: urlOf(endpoints.messageMedia, { id: 'cv-1', messageId: 'm-pics', index: '0' }) },
    { contentType: 'application/pdf', url: urlOf(endpoints.messageMedia, { id: 'cv-1', messageId: 'm-pics', index: '1' }) },
  ];
  const mediaRequests = (requests: Recorded[]) => requests.filter((r) => r.url.includes('/media/')).map((r) => r.url);

  it('shows a picture in its bubble, with the number it came from, and nothing else for a message of pictures only', async () => {
    const urls = stubObjectUrls();
    const requests = conversationServer(
      { conversations: [conversation(1)], messages: { 'cv-1': [message('cv-1', { id: 'm-pics', body: '', media: PICTURES })] } },
      { other: (r) => (r.url.endsWith('/media/0') ? bytes('image/png') : undefined) },
    );
    renderPage('/conversations/cv-1');
    const picture = await (await waitFor(threadRegion)).findByRole('img', { name: 'Photo from (415) 555-0201' });
    expect(picture.getAttribute('src')).toBe('blob:test/1');
    expect(urls.made[0]?.type).toBe('image/png');
    // Read through the API client (bearer token), once; the PDF waits until someone asks for it.
    expect(mediaRequests(requests)).toEqual([urlOf(endpoints.messageMedia, { id: 'cv-1', messageId: 'm-pics', index: '0' })]);
    expect(threadRegion().getByRole('button', { name: 'Download PDF' })).toBeTruthy();
    // Pictures only: no empty text bubble beside them.
    const bubble = picture.closest('li[class*="flex items-start"]') as HTMLElement;
    expect(bubble.querySelector('p.rounded-2xl')).toBeNull();
  });

  it('opens the picture full-size in a labelled dialog that Escape closes, giving focus back', async () => {
    stubObjectUrls();
    conversationServer(
      {
        conversations: [conversation(1)],
        messages: { 'cv-1': [message('cv-1', { id: 'm-pics', body: 'The dent', media: PICTURES.slice(0, 1) })] },
      },
      { other: (r) => (r.url.includes('/media/') ? bytes('image/jpeg') : undefined) },
    );
    const user = userEvent.setup();
    renderPage('/conversations/cv-1');
    const opener = await (await waitFor(threadRegion)).findByRole('button', { name: 'Photo from (415) 555-0201' });
    expect(threadRegion().getByText('The dent')).toBeTruthy();
    opener.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Photo from (415) 555-0201' });
    expect(within(dialog).getByRole('img', { name: 'Photo from (415) 555-0201' }).getAttribute('src')).toMatch(/^blob:test\//);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('says when a picture cannot be read and reads it again on Retry', async () => {
    stubObjectUrls();
    let refusals = 1;
    conversationServer(
      {
        conversations: [conversation(1)],
        messages: { 'cv-1': [message('cv-1', { id: 'm-pics', body: '', media: PICTURES.slice(0, 1) })] },
      },
      {
        other: (r) => {
          if (!r.url.includes('/media/')) return undefined;
          if (refusals-- > 0) return fail(413, 'This picture is too large to show here', 'PAYLOAD_TOO_LARGE');
          return bytes('image/png');
        },
      },
    );
    const user = userEvent.setup();
    renderPage('/conversations/cv-1');
    expect(await (await waitFor(threadRegion)).findByText('This picture is too large to show here')).toBeTruthy();
    await user.click(threadRegion().getByRole('button', { name: 'Retry' }));
    expect(await (await waitFor(threadRegion)).findByRole('img', { name: 'Photo from (415) 555-0201' })).toBeTruthy();
  });

  it('reads a picture only once its bubble comes near the screen', async () => {
    stubObjectUrls();
    const observers: { callback: IntersectionObserverCallback; elements: Element[] }[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        elements: Element[] = [];
        constructor(readonly callback: IntersectionObserverCallback) {
          observers.push(this);
        }
        observe(element: Element) {
          this.elements.push(element);
        }
        disconnect() {}
      },
    );
    const requests = conversationServer(
      {
        conversations: [conversation(1)],
        messages: { 'cv-1': [message('cv-1', { id: 'm-pics', body: '', media: PICTURES.slice(0, 1) })] },
      },
      { other: (r) => (r.url.includes('/media/') ? bytes('image/png') : undefined) },
    );
    renderPage('/conversations/cv-1');
    expect(await (await waitFor(threadRegion)).findByRole('img', { name: 'Photo from (415) 555-0201 (loading)' })).toBeTruthy();
    expect(mediaRequests(requests)).toEqual([]);
    const watcher = observers.find((o) => o.elements.length > 0);
    act(() =>
      watcher?.callback([{ isIntersecting: true } as IntersectionObserverEntry], watcher as unknown as IntersectionObserver),
    );
    expect(await (await waitFor(threadRegion)).findByRole('img', { name: 'Photo from (415) 555-0201' })).toBeTruthy();
    expect(mediaRequests(requests)).toHaveLength(1);
  });

  it('downloads another kind of file when asked, through the API client', async () => {
    const urls = stubObjectUrls();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const requests = conversationServer(
      {
        conversations: [conversation(1)],
        messages: { 'cv-1': [message('cv-1', { id: 'm-pics', body: 'Invoice', media: PICTURES.slice(1) })] },
      },
      { other: (r) => (r.url.includes('/media/') ? bytes('application/pdf') : undefined) },
    );
    const user = userEvent.setup();
    renderPage('/conversations/cv-1');
    await user.click(await (await waitFor(threadRegion)).findByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(mediaRequests(requests)).toEqual([urlOf(endpoints.messageMedia, { id: 'cv-1', messageId: 'm-pics', index: '0' })]);
    expect(urls.made[0]?.type).toBe('application/pdf');
  });

  it('lists an attachment of any other type without a download, and saves a vCard under a name of its type (docs/product.md: Attachments)', async () => {
    const urls = stubObjectUrls();
    const downloaded: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloaded.push(this.download);
    });
    const media = ['application/x-exe', 'image/svg+xml', 'text/x-vcard; name="card.exe"'].map((contentType, index) => ({
      contentType,
      url: urlOf(endpoints.messageMedia, { id: 'cv-1', messageId: 'm-files', index: String(index) }),
    }));
    const requests = conversationServer(
      { conversations: [conversation(1)], messages: { 'cv-1': [message('cv-1', { id: 'm-files', body: '', media })] } },
      { other: (r) => (r.url.includes('/media/') ? bytes('text/vcard') : undefined) },
    );
    const user = userEvent.setup();
    renderPage('/conversations/cv-1');
    const thread = await waitFor(threadRegion);
    expect(await thread.findByText('Attachment not shown (application/x-exe)')).toBeTruthy();
    expect(thread.getByText('Attachment not shown (image/svg+xml)')).toBeTruthy();
    // Only the vCard can be saved; nothing else is read, shown or offered.
    expect(thread.getAllByRole('button', { name: /^Download/ }).map((b) => b.textContent)).toEqual(['Download vCard']);
    expect(thread.queryByRole('img')).toBeNull();
    expect(mediaRequests(requests)).toEqual([]);
    await user.click(thread.getByRole('button', { name: 'Download vCard' }));
    await waitFor(() => expect(downloaded).toEqual(['attachment-3.vcf']));
    expect(mediaRequests(requests)).toEqual([media[2]?.url]);
    expect(urls.made).toHaveLength(1);
  });

  it('says what a message without text sent, "Photo", "2 photos", "PDF", "Attachment", and whose a reply is', async () => {
    conversationServer({
      conversations: [
        conversation(1, { lastMessage: { direction: 'INBOUND', body: '', mediaCount: 2, mediaKinds: ['photo', 'photo'] } }),
        conversation(2, { lastMessage: { direction: 'INBOUND', body: '', mediaCount: 1, mediaKinds: ['pdf'] } }),
        conversation(3, { lastMessage: { direction: 'INBOUND', body: '', mediaCount: 2, mediaKinds: ['photo', 'file'] } }),
        conversation(4, { lastMessage: { direction: 'INBOUND', body: 'Look at this', mediaCount: 1, mediaKinds: ['photo'] } }),
        conversation(5, {
          lastMessage: {
            direction: 'OUTBOUND',
            body: '',
            mediaCount: 1,
            mediaKinds: ['photo'],
            sentBy: { id: 'u2', name: 'Grace Hopper' },
          },
        }),
        conversation(6, {
          lastMessage: { direction: 'OUTBOUND', body: 'Thanks', sentBy: { id: sampleUser.id, name: sampleUser.name } },
        }),
        conversation(7, { lastMessage: { direction: 'OUTBOUND', body: 'On it', sentBy: { id: 'u2', name: 'Grace Hopper' } } }),
      ],
      messages: {},
    });
    renderPage();
    await waitFor(() => expect(items()).toHaveLength(7));
    const previews = items().map((item) => item.textContent?.replace(/^.*ago/, '').replace(/\d+ messages?$/, ''));
    expect(previews).toEqual(['2 photos', 'PDF', '2 attachments', 'Look at this', 'Grace: Photo', 'You: Thanks', 'Grace: On it']);
  });
});
