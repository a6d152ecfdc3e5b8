import type { Contact } from '@shared/contract/contacts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useCallback, useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CALLING_NOT_SET_UP, usePublishCallPlacer } from '@/lib/place-call';
import { applyEvent } from '@/lib/realtime/event-cache';
import { endpoints, fail, ok, type Recorded, renderWithProviders, signInAs, stubServer, urlOf } from '@/test-utils';
import { ContactsPage, SEARCH_DEBOUNCE_MS } from './contacts-page';

const ADA: Contact = {
  id: 'k-1',
  name: 'Ada Lovelace',
  phoneNumber: '+14155550101',
  email: 'ada@example.com',
  notes: null,
  callCount: 2,
  conversationCount: 3,
  lastContactAt: null,
  lastConversationId: 'conv-9',
  createdAt: '2026-01-01T00:00:00.000Z',
};
const UNNAMED: Contact = {
  ...ADA,
  id: 'k-2',
  name: '',
  phoneNumber: '+442079460958',
  email: null,
  conversationCount: 0,
  lastConversationId: null,
};

const writes = (requests: Recorded[]) => requests.filter((r) => r.method !== 'GET');

beforeEach(() => signInAs('AGENT'));

describe('ContactsPage', () => {
  it('shows each contact: Name or Unknown, formatted number, e-mail, counts, Last Contact or Never', async () => {
    stubServer(() => ok({ contacts: [ADA, UNNAMED] }));
    renderWithProviders(<ContactsPage />);
    const ada = (await screen.findByText('Ada Lovelace')).closest('tr') as HTMLElement;
    expect(within(ada).getByText('(415) 555-0101')).toBeTruthy();
    expect(within(ada).getByText('ada@example.com')).toBeTruthy();
    expect(within(ada).getByText('Never')).toBeTruthy();
    expect(
      within(ada)
        .getByRole('link', { name: /Open the conversation with Ada Lovelace/ })
        .getAttribute('href'),
    ).toBe('/conversations/conv-9');
    const unnamed = screen.getByText('Unknown').closest('tr') as HTMLElement;
    expect(within(unnamed).getByText('+44 20 7946 0958')).toBeTruthy();
    expect(within(unnamed).queryByRole('link', { name: /Open the conversation/ })).toBeNull();
  });

  it('Text opens New message with the contact’s number; Call opens the dialer with it, and says why not while calls cannot be placed', async () => {
    stubServer(() => ok({ contacts: [ADA] }));
    const opened: string[] = [];
    const dial = async () => null;
    function CallWidget() {
      usePublishCallPlacer(
        null,
        dial,
        useCallback((n: string) => void opened.push(n), []),
      );
      return null;
    }
    // Stands in for the call widget once calling is set up: it publishes its dialer.
    function Calling() {
      const [ready, setReady] = useState(false);
      return ready ? (
        <CallWidget />
      ) : (
        <button type="button" onClick={() => setReady(true)}>
          Calling ready
        </button>
      );
    }
    renderWithProviders(
      <>
        <Calling />
        <ContactsPage />
      </>,
    );
    const ada = (await screen.findByText('Ada Lovelace')).closest('tr') as HTMLElement;
    expect(within(ada).getByRole('link', { name: 'Text Ada Lovelace' }).getAttribute('href')).toBe(
      '/conversations?new=1&to=%2B14155550101',
    );
    const notYet = within(ada).getByRole('button', { name: 'Call Ada Lovelace' }) as HTMLButtonElement;
    expect(notYet.disabled).toBe(true);
    expect(notYet.title).toBe(CALLING_NOT_SET_UP);

    await userEvent.click(screen.getByRole('button', { name: 'Calling ready' }));
    const row = screen.getByText('Ada Lovelace').closest('tr') as HTMLElement;
    const call = within(row).getByRole('button', { name: 'Call Ada Lovelace' }) as HTMLButtonElement;
    await waitFor(() => expect(call.disabled).toBe(false));
    await userEvent.click(call);
    expect(opened).toEqual(['+14155550101']);
  });

  it('searches once typing pauses, with the text as typed', async () => {
    const requests = stubServer(() => ok({ contacts: [] }));
    renderWithProviders(<ContactsPage />);
    expect(await screen.findByText('No contacts yet')).toBeTruthy();
    const searches = () => requests.map((r) => new URL(r.url, 'http://x').searchParams.get('search'));
    // The clock stands still while typing, so only the debounce decides when the search goes out.
    // Testing Library drains through `jest` when timers are fake; vitest's fake timers answer to it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
    try {
      const events = userEvent.setup({ delay: null, advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
      const box = screen.getByRole('searchbox', { name: 'Search contacts' });
      await events.type(box, '(415) 5');
      act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1));
      await events.type(box, '55');
      act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1));
      // A keystroke inside the window starts it again: nothing has gone out yet.
      expect(searches()).toEqual(['']);
      act(() => vi.advanceTimersByTime(1));
      expect(searches()).toEqual(['', '(415) 555']);
    } finally {
      vi.useRealTimers();
      vi.unstubAllGlobals();
    }
    expect(await screen.findByText('No contacts match your search')).toBeTruthy();
    expect(searches()).toEqual(['', '(415) 555']);
    expect(requests[0]?.url).toContain('limit=100');
  });

  it('New Contact requires a number, sends the fields and shows the server’s message', async () => {
    let answer = fail(409, 'A contact with this phone number already exists.', 'CONFLICT');
    const requests = stubServer((r) => (r.method === 'POST' ? answer : ok({ contacts: [] })));
    const events = userEvent.setup();
    renderWithProviders(<ContactsPage />);
    await events.click(await screen.findByRole('button', { name: 'New Contact' }));
    const dialog = screen.getByRole('dialog', { name: 'New Contact' });
    await events.type(within(dialog).getByLabelText('Name'), 'Grace');
    await events.click(within(dialog).getByRole('button', { name: 'Create Contact' }));
    expect(within(dialog).getByText('Phone number is required')).toBeTruthy();
    expect(writes(requests)).toEqual([]);

    await events.type(within(dialog).getByLabelText(/Phone Number/), '202 555 0143');
    await events.click(within(dialog).getByRole('button', { name: 'Create Contact' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('A contact with this phone number already exists.');
    expect(writes(requests)).toEqual([
      {
        url: urlOf(endpoints.createContact),
        method: 'POST',
        body: { name: 'Grace', phoneNumber: '202 555 0143', email: '', notes: '' },
      },
    ]);
    answer = ok({ contact: { ...ADA, id: 'k-3', name: 'Grace' } }, 201);
    await events.click(within(dialog).getByRole('button', { name: 'Create Contact' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('New Contact names every field in error at once, by the server’s rules, and sends nothing', async () => {
    const requests = stubServer(() => ok({ contacts: [] }));
    const events = userEvent.setup();
    renderWithProviders(<ContactsPage />);
    await events.click(await screen.findByRole('button', { name: 'New Contact' }));
    const dialog = screen.getByRole('dialog', { name: 'New Contact' });
    await events.type(within(dialog).getByLabelText('Email'), 'grace@');
    await events.click(within(dialog).getByRole('button', { name: 'Create Contact' }));
    const phone = within(dialog).getByLabelText(/Phone Number/);
    const email = within(dialog).getByLabelText('Email');
    for (const [field, message] of [
      [phone, 'Phone number is required'],
      [email, 'Enter a valid email address'],
    ] as const) {
      expect(field.getAttribute('aria-invalid')).toBe('true');
      expect(document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent).toBe(message);
    }
    expect(document.activeElement).toBe(phone);

    // A number that is no number of the company's country (US here) is refused as the server would.
    await events.type(phone, '555');
    await events.click(within(dialog).getByRole('button', { name: 'Create Contact' }));
    expect(within(dialog).getByText('Enter a valid phone number')).toBeTruthy();
    expect(within(dialog).getByText('Enter a valid email address')).toBeTruthy();
    expect(writes(requests)).toEqual([]);
  });

  it('Edit shows the number read-only and never sends it', async () => {
    const requests = stubServer((r) =>
      r.method === 'PUT'
        ? ok({ contact: ADA })
        : r.url === urlOf(endpoints.contactTimeline, { id: 'k-1' })
          ? ok({ items: [], nextCursor: null })
          : ok({ contacts: [ADA] }),
    );
    const events = userEvent.setup();
    renderWithProviders(<ContactsPage />);
    await events.click(await screen.findByRole('button', { name: 'Edit Ada Lovelace' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Contact' });
    const phone = within(dialog).getByLabelText('Phone Number') as HTMLInputElement;
    expect(phone.readOnly).toBe(true);
    expect(phone.value).toBe('(415) 555-0101');
    expect(within(dialog).getByText('Phone number cannot be changed')).toBeTruthy();
    expect(await within(dialog).findByText('No texts or calls with this contact yet.')).toBeTruthy();
    const name = within(dialog).getByLabelText('Name');
    await events.clear(name);
    await events.type(name, 'Ada King');
    await events.click(within(dialog).getByRole('button', { name: 'Save Contact' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(writes(requests)).toEqual([
      {
        url: urlOf(endpoints.updateContact, { id: 'k-1' }),
        method: 'PUT',
        body: { name: 'Ada King', email: 'ada@example.com', notes: '' },
      },
    ]);
  });

  it('shows a contact someone else renamed or deleted without a new search; an open Edit keeps what was typed', async () => {
    let contacts = [ADA, UNNAMED];
    stubServer((r) =>
      r.url === urlOf(endpoints.contactTimeline, { id: 'k-2' }) ? ok({ items: [], nextCursor: null }) : ok({ contacts }),
    );
    const events = userEvent.setup();
    const { queryClient } = renderWithProviders(<ContactsPage />);
    await screen.findByText('Ada Lovelace');
    await events.click(screen.getByRole('button', { name: 'Edit +44 20 7946 0958' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Contact' });
    await events.type(within(dialog).getByLabelText('Notes'), 'Calls after six');

    const renamed = { ...ADA, name: 'Ada King' };
    contacts = [renamed, UNNAMED];
    act(() => applyEvent(queryClient, { type: 'contact_changed', data: { contactId: 'k-1', contact: renamed } }));
    expect(await screen.findByText('Ada King')).toBeTruthy();
    expect(screen.queryByText('Ada Lovelace')).toBeNull();
    expect((within(dialog).getByLabelText('Notes') as HTMLTextAreaElement).value).toBe('Calls after six');

    contacts = [UNNAMED];
    act(() => applyEvent(queryClient, { type: 'contact_changed', data: { contactId: 'k-1', contact: null } }));
    await waitFor(() => expect(screen.queryByText('Ada King')).toBeNull());
  });

  it('asks before deleting, naming the contact or its number', async () => {
    const requests = stubServer((r) => (r.method === 'DELETE' ? ok({ id: 'k-2' }) : ok({ contacts: [ADA, UNNAMED] })));
    const events = userEvent.setup();
    renderWithProviders(<ContactsPage />);
    await events.click(await screen.findByRole('button', { name: 'Delete +44 20 7946 0958' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain('Are you sure you want to delete +44 20 7946 0958?');
    await events.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(writes(requests)).toEqual([{ url: urlOf(endpoints.deleteContact, { id: 'k-2' }), method: 'DELETE', body: undefined }]);
  });

  it('says when the contacts cannot be loaded', async () => {
    stubServer(() => fail(500, 'Something went wrong on our side. Please try again.', 'INTERNAL_ERROR'));
    renderWithProviders(<ContactsPage />);
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong on our side. Please try again.');
  });
});
