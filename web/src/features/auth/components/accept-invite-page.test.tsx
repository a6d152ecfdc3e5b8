import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { json, ok, renderWithProviders, stubServer } from '@/test-utils';
import { AcceptInvitePage } from './accept-invite-page';

/** What the address bar shows. */
function AddressBar() {
  const { pathname, search, hash } = useLocation();
  return <output aria-label="Address">{`${pathname}${search}${hash}`}</output>;
}

const renderAt = (path: string) =>
  renderWithProviders(
    <>
      <AcceptInvitePage />
      <AddressBar />
    </>,
    { path, route: '/accept-invite' },
  );

const invitation = {
  companyName: 'Analytical Engines',
  email: 'grace@example.com',
  role: 'AGENT',
  invitedBy: { name: 'Ada Lovelace' },
  expiresAt: '2030-01-01T00:00:00.000Z',
};

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
      r.url.endsWith('/invitations/preview')
        ? ok({ invitation })
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

  it('reads the token from the fragment, sends it in a POST body only, and clears it from the address bar at once', async () => {
    const requests = stubServer(() => ok({ invitation }));
    renderAt('/accept-invite#token=secret-token');
    expect(await screen.findByRole('heading', { name: 'Join Analytical Engines' })).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Address' }).textContent).toBe('/accept-invite');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', body: { token: 'secret-token' } });
    expect(requests[0]?.url).not.toContain('secret-token');
  });

  it('still opens a link mailed before with ?token=, and clears that too', async () => {
    const requests = stubServer(() => ok({ invitation }));
    renderAt('/accept-invite?token=older-token');
    expect(await screen.findByRole('heading', { name: 'Join Analytical Engines' })).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Address' }).textContent).toBe('/accept-invite');
    expect(requests[0]?.body).toEqual({ token: 'older-token' });
  });

  it('tells the holder of a link for an address that has an account to sign in instead, with one link', async () => {
    const message = 'This email address already has a Switchboard account. Sign in instead.';
    stubServer(() => json(409, { success: false, error: { code: 'EMAIL_TAKEN', message } }));
    renderAt('/accept-invite#token=abc');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(message);
    expect(within(alert).getByRole('link', { name: 'Sign in instead.' }).getAttribute('href')).toBe('/login');
    expect(screen.getAllByRole('link')).toHaveLength(1);
  });

  it('names who invites to which company as what; Join without a name or password says so and sends nothing', async () => {
    const requests = stubServer(() => ok({ invitation: { ...invitation, role: 'ADMIN' } }));
    const events = userEvent.setup();
    renderAt('/accept-invite#token=abc');
    expect(await screen.findByRole('heading', { name: 'Join Analytical Engines' })).toBeTruthy();
    expect(screen.getByText(/invited you to join Analytical Engines on Switchboard as an admin/)).toBeTruthy();
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('grace@example.com');
    await events.click(screen.getByRole('button', { name: 'Join Analytical Engines' }));
    expect(screen.getByText('Full name is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(screen.getByLabelText('Full name').getAttribute('aria-invalid')).toBe('true');
    expect(requests).toHaveLength(1);
  });

  it('a link used once already shows the server’s words, with the way to sign in', async () => {
    const message = 'This invitation has already been accepted. Sign in with your email and password.';
    stubServer(() => json(400, { success: false, error: { code: 'INVALID_TOKEN', message, details: { used: true } } }));
    renderAt('/accept-invite#token=spent');
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(screen.getByRole('heading', { name: 'Invitation unavailable' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
  });
});
