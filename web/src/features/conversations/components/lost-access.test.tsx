import type { Conversation, ConversationDetail } from '@shared/contract/conversations';
import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { applyEvent } from '@/lib/realtime/event-cache';
import { endpoints, fail, ok, renderWithProviders, signInAs, stubServer, urlOf } from '@/test-utils';
import { ConversationsPage, LOST_ACCESS } from './conversations-page';

/**
 * Taking the view away at once (docs/product.md: Who sees what): removed from an inbox, or its number
 * routed elsewhere, an agent's open tab hears `visibility_changed`, reads its list and open thread
 * again, and a thread the server no longer shows them closes with a notice.
 */

const at = new Date().toISOString();
const conversation = (n: number): Conversation => ({
  id: `cv-${n}`,
  status: 'OPEN',
  contact: { id: `ct-${n}`, name: `Customer ${n}`, phoneNumber: `+1415555020${n}` },
  channel: { id: 'ch-1', identifier: '+14155550101' },
  lastMessage: { direction: 'INBOUND', body: `Question ${n}` },
  lastMessageAt: at,
  messageCount: 1,
  optedOut: false,
  createdAt: at,
  assignee: null,
  unreadCount: 0,
});

/** The server as the agent sees it: `hidden` holds what is no longer theirs, answered 404 like a missing one. */
function agentServer(hidden: Set<string>) {
  const all = [conversation(1), conversation(2)];
  return stubServer((r) => {
    const url = new URL(r.url, 'http://app');
    if (url.pathname === urlOf(endpoints.listChannels)) return ok({ channels: [] });
    if (url.pathname === urlOf(endpoints.listUsers)) return ok({ users: [] });
    if (url.pathname === urlOf(endpoints.listConversations)) {
      const shown = all.filter((c) => !hidden.has(c.id));
      return ok({
        conversations: shown,
        total: shown.length,
        pagination: { total: shown.length, limit: 20, offset: 0, nextCursor: null },
      });
    }
    const id = /^\/api\/v1\/conversations\/([^/]+)$/.exec(url.pathname)?.[1];
    const found = all.find((c) => c.id === id && !hidden.has(c.id));
    if (!found) return fail(404, 'Conversation not found', 'NOT_FOUND');
    const detail: ConversationDetail = {
      ...found,
      sendingBlockedBy: null,
      picturesBlockedBy: null,
      messages: [],
      olderCursor: null,
      members: [],
    };
    return ok({ conversation: detail });
  });
}

const renderPage = (path: string) =>
  renderWithProviders(<ConversationsPage />, { path, route: '/conversations/:conversationId?' });
const listed = () =>
  within(screen.getByRole('region', { name: 'Conversation list' }))
    .queryAllByRole('link')
    .map((a) => a.getAttribute('href'));

beforeEach(() => signInAs('AGENT'));

describe('a conversation taken away while open', () => {
  it('closes with a notice, back on the list, which no longer holds it', async () => {
    const hidden = new Set<string>();
    agentServer(hidden);
    const { queryClient } = renderPage('/conversations/cv-1');
    expect(await screen.findByRole('heading', { name: 'Customer 1', level: 2 })).toBeTruthy();
    await waitFor(() => expect(listed()).toContain('/conversations/cv-1'));
    expect(screen.queryByText(LOST_ACCESS)).toBeNull();

    // Removed from the inbox: the server no longer shows it to them.
    hidden.add('cv-1');
    act(() => applyEvent(queryClient, { type: 'visibility_changed', data: { reason: 'INBOX_MEMBERSHIP' } }));

    expect((await screen.findByRole('status')).textContent).toBe(LOST_ACCESS);
    expect(screen.queryByRole('heading', { name: 'Customer 1', level: 2 })).toBeNull();
    expect(screen.getByText('No conversation selected')).toBeTruthy();
    await waitFor(() => expect(listed()).toEqual(['/conversations/cv-2']));

    // The next conversation chosen is shown as usual, and the notice has said its piece.
    act(() =>
      within(screen.getByRole('region', { name: 'Conversation list' }))
        .getByRole('link')
        .click(),
    );
    expect(await screen.findByRole('heading', { name: 'Customer 2', level: 2 })).toBeTruthy();
    expect(screen.queryByText(LOST_ACCESS)).toBeNull();
  });

  it('a thread that is still theirs stays open when their view changes', async () => {
    agentServer(new Set(['cv-2']));
    const { queryClient } = renderPage('/conversations/cv-1');
    expect(await screen.findByRole('heading', { name: 'Customer 1', level: 2 })).toBeTruthy();
    act(() => applyEvent(queryClient, { type: 'visibility_changed', data: { reason: 'ROUTING' } }));
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(screen.getByRole('heading', { name: 'Customer 1', level: 2 })).toBeTruthy();
    expect(screen.queryByText(LOST_ACCESS)).toBeNull();
  });

  it('one never shown still says it was not found', async () => {
    agentServer(new Set(['cv-1']));
    renderPage('/conversations/cv-1');
    expect(await screen.findByText('This conversation was not found.')).toBeTruthy();
    expect(screen.queryByText(LOST_ACCESS)).toBeNull();
  });
});
