import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { endpoints, fail, json, renderWithProviders, stubServer, urlOf } from '@/test-utils';
import { ResendVerificationPage } from './resend-verification-page';

const renderAt = (state?: { email: string }) =>
  renderWithProviders(<ResendVerificationPage />, { path: '/resend-verification', route: '/resend-verification', state });

const SENT = 'If that address has an account waiting for verification, a new link is on its way.';

describe('ResendVerificationPage', () => {
  it('starts with the e-mail the sign-in page passed on, sends it, and shows Check your email with the way back', async () => {
    const requests = stubServer(() => json(200, { success: true, data: {}, message: SENT }));
    const events = userEvent.setup();
    renderAt({ email: 'ada@example.com' });
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ada@example.com');
    await events.click(screen.getByRole('button', { name: 'Send verification email' }));
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(SENT);
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/login');
    expect(requests).toEqual([{ url: urlOf(endpoints.resendVerification), method: 'POST', body: { email: 'ada@example.com' } }]);
  });

  it('asks for the e-mail before sending, and shows the server’s refusal', async () => {
    const requests = stubServer(() => fail(429, 'Too many verification emails. Try again later.', 'RATE_LIMITED'));
    const events = userEvent.setup();
    renderAt();
    await events.click(screen.getByRole('button', { name: 'Send verification email' }));
    expect(screen.getByText('Email is required')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
    expect(requests).toEqual([]);
    await events.type(screen.getByLabelText('Email'), 'ada@example.com');
    await events.click(screen.getByRole('button', { name: 'Send verification email' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many verification emails. Try again later.');
  });
});
