import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { session } from '@/lib/services';
import { callLine, deferred, endpoints, fail, json, ok, renderWithProviders, signInAs, stubServer, urlOf } from '@/test-utils';
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

describe('ProfilePage: name', () => {
  it('saves the edited name (disabled until changed, and while saving) and shows it as the session’s', async () => {
    const answer = deferred();
    const requests = stubServer(() => answer.promise);
    const events = userEvent.setup();
    renderWithProviders(<ProfilePage />);
    const name = screen.getByLabelText('Full name') as HTMLInputElement;
    expect(name.value).toBe('Ada Lovelace');
    const save = screen.getByRole('button', { name: 'Save name' });
    expect(save).toHaveProperty('disabled', true);
    await events.clear(name);
    await events.type(name, '  Ada King ');
    await events.click(save);
    expect(screen.getByRole('button', { name: 'Saving...' })).toHaveProperty('disabled', true);
    answer.release(ok({ user: { ...session.get()?.user, name: 'Ada King' } }));
    expect(await screen.findByText('Your name was saved.')).toBeTruthy();
    expect(session.get()?.user.name).toBe('Ada King');
    expect(requests).toEqual([{ url: urlOf(endpoints.updateProfile), method: 'PATCH', body: { name: 'Ada King' } }]);
  });

  it('asks for a name before sending anything', async () => {
    const requests = stubServer(() => ok({}));
    const events = userEvent.setup();
    renderWithProviders(<ProfilePage />);
    await events.clear(screen.getByLabelText('Full name'));
    await events.type(screen.getByLabelText('Full name'), '   ');
    await events.click(screen.getByRole('button', { name: 'Save name' }));
    expect(screen.getByText('Full name is required')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Full name'));
    expect(requests).toEqual([]);
  });
});

describe('ProfilePage: password', () => {
  async function fill(current: string, next: string, confirm = next) {
    const events = userEvent.setup();
    await events.type(screen.getByLabelText('Current password'), current);
    await events.type(screen.getByLabelText('New password'), next);
    await events.type(screen.getByLabelText('Confirm new password'), confirm);
    await events.click(screen.getByRole('button', { name: 'Change password' }));
  }

  it('changes it with the current one, says the other sessions ended, keeps this one and empties the fields', async () => {
    const message = 'Your password was changed. You were signed out everywhere else.';
    const requests = stubServer(() => json(200, { success: true, data: {}, message }));
    renderWithProviders(<ProfilePage />);
    await fill('old password here', 'a brand new password');
    expect(await screen.findByText(message)).toBeTruthy();
    expect(session.get()).not.toBeNull();
    expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe('');
    expect(requests).toEqual([
      {
        url: urlOf(endpoints.changePassword),
        method: 'POST',
        body: { currentPassword: 'old password here', newPassword: 'a brand new password' },
      },
    ]);
  });

  it('a wrong current password is shown on its field, focused, with the new one kept and the session untouched', async () => {
    stubServer(() =>
      json(400, {
        success: false,
        error: {
          code: 'VALIDATION_FAILED',
          message: 'Current password is incorrect',
          details: { fields: { currentPassword: 'Current password is incorrect' } },
        },
      }),
    );
    renderWithProviders(<ProfilePage />);
    await fill('a wrong guess', 'a brand new password');
    expect(await screen.findByText('Current password is incorrect')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Current password')));
    expect((screen.getByLabelText('New password') as HTMLInputElement).value).toBe('a brand new password');
    expect(session.get()).not.toBeNull();
  });

  it('checks the fields before sending', async () => {
    const requests = stubServer(() => ok({}));
    renderWithProviders(<ProfilePage />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByText('Current password is required')).toBeTruthy();
    expect(screen.getByText('New password is required')).toBeTruthy();
    await fill('old password here', 'long enough one', 'long enough two');
    expect(screen.getByText('The passwords do not match')).toBeTruthy();
    expect(requests).toEqual([]);
  });
});
