import { screen } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { session } from '@/lib/services';
import { json, renderWithProviders, sampleCompany, sampleUser, stubServer } from '@/test-utils';
import { VerifyEmailPage } from './verify-email-page';

/** What the address bar shows. */
function AddressBar() {
  const { pathname, search, hash } = useLocation();
  return <output aria-label="Address">{`${pathname}${search}${hash}`}</output>;
}

const renderAt = (path: string) => renderWithProviders(<VerifyEmailPage />, { path, route: '/verify-email' });

const used = () =>
  json(400, {
    success: false,
    error: {
      code: 'INVALID_TOKEN',
      message: 'This verification link is invalid or has already been used.',
      details: { canResend: false },
    },
  });

afterEach(() => session.clear());

describe('VerifyEmailPage', () => {
  it('a link without a token says so, without asking the server, with the way back to sign in', async () => {
    const requests = stubServer(used);
    renderAt('/verify-email');
    expect(await screen.findByRole('heading', { name: 'Verification failed' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Invalid verification link. No token provided.');
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/login');
    expect(requests).toEqual([]);
  });

  it('a used link opened while signed in says the e-mail is already verified, with the way to the dashboard', async () => {
    session.signIn({ user: sampleUser, company: sampleCompany, tokens: { accessToken: 'a', refreshToken: 'r' } });
    stubServer(used);
    renderAt('/verify-email?token=spent');
    expect((await screen.findByRole('heading', { name: 'Email already verified' })).textContent).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Your e-mail is already verified.');
    expect(screen.getByRole('link', { name: 'Go to your dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(screen.queryByText(/Verification failed|Back to sign in/)).toBeNull();
  });

  it('the same link opened by a visitor is a failure with the way back to sign in', async () => {
    stubServer(used);
    renderAt('/verify-email?token=spent');
    expect(await screen.findByRole('heading', { name: 'Verification failed' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('This verification link is invalid or has already been used.');
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toBeTruthy();
  });

  it('reads the token from the fragment, sends it in a POST body, and clears it from the address bar at once', async () => {
    const requests = stubServer(used);
    renderWithProviders(
      <>
        <VerifyEmailPage />
        <AddressBar />
      </>,
      { path: '/verify-email#token=secret-token', route: '/verify-email' },
    );
    expect(await screen.findByRole('heading', { name: 'Verification failed' })).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Address' }).textContent).toBe('/verify-email');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', body: { token: 'secret-token' } });
    expect(requests[0]?.url).not.toContain('secret-token');
  });

  it('an expired link says so once, with the way to a new e-mail', async () => {
    stubServer(() =>
      json(400, {
        success: false,
        error: { code: 'INVALID_TOKEN', message: 'This verification link has expired.', details: { canResend: true } },
      }),
    );
    renderAt('/verify-email?token=old');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Your verification link has expired.');
    expect(screen.queryAllByText(/expired/)).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Request a new verification email' }).getAttribute('href')).toBe(
      '/resend-verification',
    );
    expect(document.title).toBe('Verification failed · Switchboard');
  });
});
