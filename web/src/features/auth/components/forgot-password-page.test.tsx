import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { deferred, endpoints, fail, json, renderWithProviders, stubServer, urlOf } from '@/test-utils';
import { ForgotPasswordPage } from './forgot-password-page';

const renderAt = (state?: { email: string }) =>
  renderWithProviders(<ForgotPasswordPage />, { path: '/forgot-password', route: '/forgot-password', state });

const SENT = 'If an account uses that email, a link to reset its password is on its way. It works for 1 hour.';

describe('ForgotPasswordPage', () => {
  it('starts with the e-mail typed on the sign-in page, sends it, and shows Check your email with the way back', async () => {
    const answer = deferred();
    const requests = stubServer(() => answer.promise);
    const events = userEvent.setup();
    renderAt({ email: 'ada@example.com' });
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ada@example.com');
    await events.click(screen.getByRole('button', { name: 'Send reset link' }));
    const pending = screen.getByRole('button', { name: 'Sending...' }) as HTMLButtonElement;
    expect(pending.disabled).toBe(true);
    answer.release(json(202, { success: true, data: {}, message: SENT }));
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(SENT);
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/login');
    expect(requests).toEqual([{ url: urlOf(endpoints.forgotPassword), method: 'POST', body: { email: 'ada@example.com' } }]);
  });

  it('asks for the e-mail before sending, and shows the server’s refusal with what was typed kept', async () => {
    const message = 'Too many password reset emails requested. Please try again in 12 minutes.';
    const requests = stubServer(() => fail(429, message, 'TOO_MANY_REQUESTS'));
    const events = userEvent.setup();
    renderAt();
    await events.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByText('Email is required')).toBeTruthy();
    expect(requests).toEqual([]);
    await events.type(screen.getByLabelText('Email'), 'ada@example.com');
    await events.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ada@example.com');
  });
});
