import type { Message, SharedConversation } from '@shared/contract/conversations';
import { act, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { conversationKeys } from '../../lib/conversation-cache';
import { applyEvent } from '../../lib/realtime/event-cache';
import { session } from '../../lib/services';
import { useDocumentTitle } from '../../lib/use-document-title';
import { endpoints, ok, renderWithProviders, sampleCompany, sampleUser, signInAs, stubServer, urlOf } from '../../test-utils';
import { AppShell } from './app-shell';

// The shell without a socket or a phone: the nav and the title are the subject here.
vi.mock('../../lib/realtime/realtime', () => ({
  useRealtimeConnection: () => {},
  useRealtimeState: () => 'connected',
  useRealtimeEvent: () => {},
}));
vi.mock('../../features/softphone/components/softphone-widget', () => ({ SoftphoneWidget: () => null }));
// jsdom has no matchMedia; the theme toggle asks it for the system's preference.
vi.hoisted(() => {
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query }) as MediaQueryList) as typeof window.matchMedia;
});

function Page() {
  useDocumentTitle('Contacts');
  return <p>Contacts page</p>;
}

beforeEach(() => signInAs('AGENT'));

const inboundText = (conversationId: string) =>
  ({
    id: `m-${conversationId}`,
    conversationId,
    type: 'SMS',
    direction: 'INBOUND',
    body: 'Hello?',
    mentions: [],
  }) as unknown as Message;
const sharedConversation = (id: string, messageCount: number) =>
  ({
    id,
    status: 'OPEN',
    contact: { id: 'ct-9', name: '', phoneNumber: '+14155550209' },
    channel: { id: 'ch-2', identifier: '+14155550102' },
    lastMessage: { direction: 'INBOUND', body: 'Hello?' },
    lastMessageAt: new Date().toISOString(),
    messageCount,
    optedOut: false,
    createdAt: new Date().toISOString(),
    assignee: null,
  }) as SharedConversation;

describe('AppShell unread count', () => {
  it("shows the number of conversations with unread messages on Conversations and at the start of the tab's title", async () => {
    const requests = stubServer((r) =>
      r.url.startsWith(urlOf(endpoints.unreadConversations)) ? ok({ count: 3, complete: true }) : ok({}),
    );
    const { queryClient } = renderWithProviders(
      <Routes>
        <Route element={<AppShell />}>
          <Route path="*" element={<Page />} />
        </Route>
      </Routes>,
    );
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await waitFor(() => expect(within(nav).getByRole('link', { name: 'Conversations 3 unread' })).toBeTruthy());
    await waitFor(() => expect(document.title).toBe('(3) Contacts · Switchboard'));
    expect(requests.filter((r) => r.url === urlOf(endpoints.unreadConversations))).toHaveLength(1);
    // On a phone the nav is folded away behind the menu button, which carries the count too.
    const menu = screen.getByRole('button', { name: 'Open menu, 3 unread' });
    expect(menu.textContent).toBe('3');

    // Events keep it up to date; past the badge's maximum it says 99+.
    act(() => queryClient.setQueryData(conversationKeys.unread, { count: 120, complete: true }));
    await waitFor(() => expect(within(nav).getByRole('link', { name: 'Conversations 99+ unread' })).toBeTruthy());
    expect(screen.getByRole('button', { name: 'Open menu, 99+ unread' }).textContent).toBe('99+');
    expect(document.title).toBe('(99+) Contacts · Switchboard');
    act(() => queryClient.setQueryData(conversationKeys.unread, { count: 0, complete: true }));
    await waitFor(() => expect(within(nav).getByRole('link', { name: 'Conversations' })).toBeTruthy());
    expect(document.title).toBe('Contacts · Switchboard');
    expect(screen.getByRole('button', { name: 'Open menu' }).textContent).toBe('');
  });
  it('counts only what the server says: a change of view reads it again, and a text in a conversation this tab never listed is not added to it', async () => {
    // The server counts the conversations this member sees (docs/product.md: Who sees what).
    let count = 3;
    const requests = stubServer((r) =>
      r.url.startsWith(urlOf(endpoints.unreadConversations)) ? ok({ count, complete: true }) : ok({}),
    );
    const { queryClient } = renderWithProviders(
      <Routes>
        <Route element={<AppShell />}>
          <Route path="*" element={<Page />} />
        </Route>
      </Routes>,
    );
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await waitFor(() => expect(within(nav).getByRole('link', { name: 'Conversations 3 unread' })).toBeTruthy());
    const reads = () => requests.filter((r) => r.url === urlOf(endpoints.unreadConversations)).length;

    // Removed from an inbox: two of them are no longer theirs.
    count = 1;
    act(() => applyEvent(queryClient, { type: 'visibility_changed', data: { reason: 'INBOX_MEMBERSHIP' } }));
    await waitFor(() => expect(within(nav).getByRole('link', { name: 'Conversations 1 unread' })).toBeTruthy());
    expect(document.title).toBe('(1) Contacts · Switchboard');
    expect(reads()).toBe(2);

    // A text in a conversation no list of this tab holds: the count is read again, not worked out here.
    act(() =>
      applyEvent(queryClient, {
        type: 'new_message',
        data: { conversationId: 'cv-9', message: inboundText('cv-9'), conversation: sharedConversation('cv-9', 4) },
      }),
    );
    await waitFor(() => expect(reads()).toBe(3));
    expect(within(nav).getByRole('link', { name: 'Conversations 1 unread' })).toBeTruthy();
    expect(document.title).toBe('(1) Contacts · Switchboard');
  });
});

describe('AppShell Admin link', () => {
  const renderShell = () =>
    renderWithProviders(
      <Routes>
        <Route element={<AppShell />}>
          <Route path="*" element={<Page />} />
        </Route>
      </Routes>,
    );

  it('is offered to a platform administrator only', async () => {
    stubServer(() => ok({}));
    const first = renderShell();
    const nav = () => screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav()).getByRole('link', { name: 'Dashboard' })).toBeTruthy();
    expect(within(nav()).queryByRole('link', { name: 'Admin' })).toBeNull();
    first.unmount();

    session.signIn({
      user: { ...sampleUser, isPlatformAdmin: true },
      company: sampleCompany,
      tokens: { accessToken: 'a', refreshToken: 'r' },
    });
    renderShell();
    expect(within(nav()).getByRole('link', { name: 'Admin' }).getAttribute('href')).toBe('/admin');
  });
});
