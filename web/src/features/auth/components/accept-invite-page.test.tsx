import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, ok, renderWithProviders, stubServer } from '../../../test-utils';
import { AcceptInvitePage } from './accept-invite-page';

const renderAt = (path: string) => renderWithProviders(<AcceptInvitePage />, { path, route: '/accept-invite' });

describe('AcceptInvitePage', () => {
  it('says a link without a token is invalid, without asking the server', async () => {
    const requests = stubServer(() => json(500, {}));
    renderAt('/accept-invite');
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid invitation link. No token provided.');
    expect(requests).toEqual([]);
  });

  it("shows an expired link's message from the server and a way back to sign in", async () => {
    const message = 'This invitation has expired. Ask Ada Lovelace to send a new one.';
    stubServer(() => json(400, { success: false, error: { code: 'INVALID_TOKEN', message, details: { expired: true } } }));
    renderAt('/accept-invite?token=abc');
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(screen.getByRole('heading', { name: 'Invitation unavailable' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/login');
  });

  it("an address that already has an account offers 'Sign in instead.' as a real link", async () => {
    const message = 'An account with this email already exists. Sign in instead.';
    stubServer((r) =>
      r.method === 'GET'
        ? ok({
            invitation: {
              companyName: 'Analytical Engines',
              email: 'grace@example.com',
              role: 'AGENT',
              invitedBy: { name: 'Ada Lovelace' },
              expiresAt: '2030-01-01T00:00:00.000Z',
            },
          })
        : json(409, { success: false, error: { code: 'EMAIL_TAKEN', message } }),
    );
    const events = userEvent.setup();
    renderAt('/accept-invite?token=abc');
    await events.type(await screen.findByLabelText('Full name'), 'Grace Hopper');
    await events.type(screen.getByLabelText('Password'), 'long enough password');
    await events.click(screen.getByRole('button', { name: 'Join Analytical Engines' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(message);
    expect(within(alert).getByRole('link', { name: 'Sign in instead.' }).getAttribute('href')).toBe('/login');
  });
});
