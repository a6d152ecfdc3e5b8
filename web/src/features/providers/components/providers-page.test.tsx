import type { Provider } from '@shared/contract/settings';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  deferred,
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
import { ProvidersPage } from './providers-page';

const SID = 'AC0123456789abcdef0123456789abcdef';
const PROVIDER: Provider = { id: 'prov-1', type: 'TWILIO', accountSid: SID, channelCount: 1, createdAt: '2025-01-01T00:00:00Z' };

beforeEach(() => signInAs('OWNER'));

describe('ProvidersPage, not connected', () => {
  it('shows Not connected with Connect, and the dimmed email card, disabled', async () => {
    stubServer(() => ok({ providers: [] }));
    renderWithProviders(<ProvidersPage />);
    expect(await screen.findByText('Not connected')).toBeTruthy();
    expect(screen.getByText('Email support (coming soon)')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Connect email (coming soon)' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Connect' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('a failed list is only logged: the page shows Not connected, with a quiet Retry that loads it again', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    let down = true;
    stubServer(() => (down ? json(500, {}) : ok({ providers: [PROVIDER] })));
    const events = userEvent.setup();
    renderWithProviders(<ProvidersPage />);
    expect(await screen.findByText('Not connected')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText(/Couldn't load providers\./)).toBeTruthy();
    await waitFor(() => expect(logged).toHaveBeenCalled());

    down = false;
    await events.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Connected')).toBeTruthy();
    expect(screen.queryByText(/Couldn't load providers/)).toBeNull();
  });

  it('after connecting, focus moves to Import numbers, the next step', async () => {
    let providers: Provider[] = [];
    stubServer((request) => {
      if (request.method === 'GET') return ok({ providers });
      providers = [PROVIDER];
      return ok({ provider: PROVIDER }, 201);
    });
    const events = userEvent.setup();
    renderWithProviders(<ProvidersPage />);
    await events.click(await screen.findByRole('button', { name: 'Connect' }));
    const dialog = screen.getByRole('dialog', { name: 'Connect Twilio' });
    await events.type(within(dialog).getByLabelText('Account SID'), SID);
    await events.type(within(dialog).getByLabelText('Auth token'), 'right');
    await events.click(within(dialog).getByRole('button', { name: 'Connect' }));

    const importButton = await screen.findByRole('button', { name: 'Import numbers' });
    await waitFor(() => expect(document.activeElement).toBe(importButton));
    expect(screen.getByText('Twilio connected. Import your phone numbers to start using them.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('connect: both fields required, the SID format checked, the server message shown with the input kept', async () => {
    let answer = fail(400, 'Twilio rejected these credentials. Check the Account SID and Auth Token.', 'PROVIDER_AUTH_FAILED');
    const pending = deferred();
    const requests = stubServer((request) => {
      if (request.method === 'GET') return ok({ providers: [] });
      return request.body && (request.body as { authToken: string }).authToken === 'right' ? pending.promise : answer;
    });
    const events = userEvent.setup();
    renderWithProviders(<ProvidersPage />);
    await events.click(await screen.findByRole('button', { name: 'Connect' }));
    const dialog = screen.getByRole('dialog', { name: 'Connect Twilio' });
    const sid = within(dialog).getByLabelText('Account SID') as HTMLInputElement;
    const token = within(dialog).getByLabelText('Auth token') as HTMLInputElement;
    expect(token.type).toBe('password');
    expect(document.activeElement).toBe(sid);

    const submit = () => events.click(within(dialog).getByRole('button', { name: /^(Connect|Connecting\.\.\.)$/ }));
    await submit();
    expect(within(dialog).getByText('Account SID is required')).toBeTruthy();
    expect(within(dialog).getByText('Auth token is required')).toBeTruthy();
    await events.type(sid, 'AC123');
    await events.type(token, 'wrong');
    await submit();
    expect(within(dialog).getByText('Account SID starts with AC followed by 32 letters and digits')).toBeTruthy();
    expect(requests.filter((r: Recorded) => r.method === 'POST')).toEqual([]);

    await events.clear(sid);
    await events.type(sid, ` ${SID} `);
    await submit();
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Twilio rejected these credentials. Check the Account SID and Auth Token.',
    );
    expect(requests.at(-1)).toEqual({
      url: urlOf(endpoints.connectTwilio),
      method: 'POST',
      body: { accountSid: SID, authToken: 'wrong' },
    });
    expect(sid.value).toBe(` ${SID} `);

    answer = new Response('', { status: 502 });
    await submit();
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe('Failed to connect Twilio'));

    await events.clear(token);
    await events.type(token, 'right');
    await submit();
    expect(within(dialog).getByRole('button', { name: 'Connecting...' })).toHaveProperty('disabled', true);
    pending.release(ok({ provider: PROVIDER }, 201));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('ProvidersPage, connected', () => {
  it('shows Connected, the channel count, Import numbers and a named disconnect button', async () => {
    stubServer(() => ok({ providers: [PROVIDER] }));
    renderWithProviders(<ProvidersPage />);
    expect(await screen.findByText('Connected')).toBeTruthy();
    expect(screen.getByText('1 channel')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Import numbers' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Disconnect Twilio' })).toBeTruthy();
  });

  it('after an import, the notice names any number that was left out and why', async () => {
    const number = (sid: string, phoneNumber: string) => ({
      sid,
      phoneNumber,
      friendlyName: sid,
      imported: false,
      previouslyImported: false,
      inUseElsewhere: false,
      voiceUrl: null,
      smsUrl: null,
      voiceApplication: null,
      smsApplication: null,
      capabilities: { voice: true, sms: false, mms: false },
    });
    stubServer((r) => {
      if (r.url.endsWith('/available-numbers'))
        return ok({ numbers: [number('PN1', '+14155550101'), number('PN2', '+14155550102')] });
      if (r.url.endsWith('/import-channels')) {
        return ok({
          channels: [],
          importedCount: 1,
          skipped: [{ phoneNumber: '+14155550101', reason: 'it is already a channel of another company.' }],
        });
      }
      return ok({ providers: [PROVIDER] });
    });
    const events = userEvent.setup();
    renderWithProviders(<ProvidersPage />);
    await events.click(await screen.findByRole('button', { name: 'Import numbers' }));
    const dialog = screen.getByRole('dialog', { name: 'Import Phone Numbers' });
    await events.click(await within(dialog).findByRole('checkbox', { name: '(415) 555-0101' }));
    await events.click(within(dialog).getByRole('checkbox', { name: '(415) 555-0102' }));
    await events.click(within(dialog).getByRole('button', { name: 'Import 2 Numbers' }));
    const notice = await screen.findByText(/Imported 1 number\./);
    expect(notice.closest('[role="status"]')?.textContent).toContain(
      '(415) 555-0101 was not imported: it is already a channel of another company.',
    );
  });

  it('disconnect asks first, listing the consequences; a failure shows Failed to disconnect provider', async () => {
    let answer: Response = json(500, {});
    const requests = stubServer((request) =>
      request.method === 'DELETE' ? answer : ok({ providers: [{ ...PROVIDER, channelCount: 3 }] }),
    );
    const events = userEvent.setup();
    renderWithProviders(<ProvidersPage />);
    const trash = await screen.findByRole('button', { name: 'Disconnect Twilio' });
    await events.click(trash);

    const confirm = screen.getByRole('alertdialog', { name: 'Disconnect Twilio?' });
    expect(confirm.textContent).toContain('removes your Twilio credentials');
    expect(confirm.textContent).toContain('deactivates the imported channels (3 channels) and stops webhook routing');
    expect(confirm.textContent).toContain('Your Twilio account and its phone numbers are left untouched.');
    expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(requests.filter((r) => r.method === 'DELETE')).toEqual([]);

    await events.click(within(confirm).getByRole('button', { name: 'Disconnect' }));
    expect((await within(confirm).findByRole('alert')).textContent).toBe('Failed to disconnect provider');

    answer = ok({ provider: PROVIDER });
    await events.click(within(confirm).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([
      urlOf(endpoints.disconnectProvider, { id: 'prov-1' }),
      urlOf(endpoints.disconnectProvider, { id: 'prov-1' }),
    ]);
  });

  it('Escape cancels the confirmation and gives focus back to the trash button', async () => {
    stubServer(() => ok({ providers: [PROVIDER] }));
    const events = userEvent.setup();
    renderWithProviders(<ProvidersPage />);
    const trash = await screen.findByRole('button', { name: 'Disconnect Twilio' });
    await events.click(trash);
    expect(screen.getByRole('alertdialog')).toBeTruthy();
    await events.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(document.activeElement).toBe(trash);
  });
});

describe('ProvidersPage for an agent', () => {
  beforeEach(() => signInAs('AGENT'));

  it('shows the connection without Connect, Import numbers or disconnect, and says why', async () => {
    stubServer(() => ok({ providers: [] }));
    const { unmount } = renderWithProviders(<ProvidersPage />);
    expect(await screen.findByText('Not connected')).toBeTruthy();
    expect(screen.getByText('Only the owner and admins can change these settings.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Connect' })).toBeNull();
    unmount();

    stubServer(() => ok({ providers: [PROVIDER] }));
    renderWithProviders(<ProvidersPage />);
    expect(await screen.findByText('Connected')).toBeTruthy();
    expect(screen.getByText('1 channel')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Import numbers' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Disconnect Twilio' })).toBeNull();
  });
});
