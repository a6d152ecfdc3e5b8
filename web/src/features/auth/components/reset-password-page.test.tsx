import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { endpoints, fail, json, renderWithProviders, stubServer, urlOf } from '@/test-utils';
import { ResetPasswordPage } from './reset-password-page';

const renderAt = (path: string) => renderWithProviders(<ResetPasswordPage />, { path, route: '/reset-password' });

const CHANGED = 'Your password has been changed. Sign in with your new password.';

async function choose(password: string, confirm = password) {
  const events = userEvent.setup();
  await events.type(screen.getByLabelText('New password'), password);
  await events.type(screen.getByLabelText('Confirm new password'), confirm);
  await events.click(screen.getByRole('button', { name: 'Set new password' }));
  return events;
}

describe('ResetPasswordPage', () => {
  it('sends the link’s token with the new password, then offers to sign in', async () => {
    const requests = stubServer(() => json(200, { success: true, data: {}, message: CHANGED }));
    renderAt('/reset-password#token=abc123');
    expect(document.activeElement).toBe(screen.getByLabelText('New password'));
    await choose('a brand new password');
    expect(await screen.findByRole('heading', { name: 'Password changed' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(CHANGED);
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
    expect(requests).toEqual([
      { url: urlOf(endpoints.resetPassword), method: 'POST', body: { token: 'abc123', password: 'a brand new password' } },
    ]);
  });

  it('checks length and the confirmation before sending', async () => {
    const requests = stubServer(() => json(200, { success: true, data: {} }));
    renderAt('/reset-password#token=abc123');
    await choose('short');
    expect(screen.getByText(/^Password must be at least \d+ characters long$/)).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('New password'));
    await userEvent.setup().clear(screen.getByLabelText('New password'));
    await userEvent.setup().clear(screen.getByLabelText('Confirm new password'));
    await choose('long enough one', 'long enough two');
    expect(screen.getByText('The passwords do not match')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Confirm new password'));
    expect(requests).toEqual([]);
  });

  it('a used or expired link says so and offers a new one', async () => {
    const message = 'This password reset link has expired. Ask for a new one.';
    stubServer(() => fail(400, message, 'INVALID_TOKEN'));
    renderAt('/reset-password#token=old');
    await choose('a brand new password');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(message);
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/forgot-password');
  });

  it('without a token says the link is incomplete and sends nothing', () => {
    const requests = stubServer(() => json(200, { success: true, data: {} }));
    renderAt('/reset-password');
    expect(screen.getByRole('heading', { name: 'Reset link incomplete' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/forgot-password');
    expect(requests).toEqual([]);
  });
});
