import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { session } from '@/lib/services';
import { callLine, endpoints, fail, ok, renderWithProviders, signInAs, stubServer } from '@/test-utils';
import { ProfilePage } from './profile-page';

beforeEach(() => signInAs('AGENT'));

describe('ProfilePage: Sign out everywhere', () => {
  it('asks first; Cancel keeps every session and sends nothing', async () => {
    const requests = stubServer(() => ok({}));
    const events = userEvent.setup();
    renderWithProviders(<ProfilePage />);
    const button = screen.getByRole('button', { name: 'Sign out everywhere' });
    await events.click(button);
    const confirm = screen.getByRole('alertdialog', { name: 'Sign out everywhere?' });
    expect(confirm.textContent).toContain('on every device and browser, this one included');
    expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Cancel' }));
    await events.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(document.activeElement).toBe(button);
    expect(requests).toEqual([]);
    expect(session.get()).not.toBeNull();
  });

  it('signs out everywhere once confirmed, and says so in the dialog when it fails', async () => {
    let answer = fail(503, 'Service unavailable', 'UNAVAILABLE');
    const requests = stubServer(() => answer);
    const events = userEvent.setup();
    renderWithProviders(<ProfilePage />);
    await events.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Sign out everywhere?' });
    await events.click(within(confirm).getByRole('button', { name: 'Sign out everywhere' }));
    expect((await within(confirm).findByRole('alert')).textContent).toBe('Service unavailable');
    expect(session.get()).not.toBeNull();

    answer = ok({});
    await events.click(within(confirm).getByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(session.get()).toBeNull());
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([callLine(endpoints.logoutAll), callLine(endpoints.logoutAll)]);
  });
});
