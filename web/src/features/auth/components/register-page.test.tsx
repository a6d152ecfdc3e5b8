import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, renderWithProviders, stubServer } from '../../../test-utils';
import { RegisterPage } from './register-page';

describe('RegisterPage', () => {
  it("a taken address shows the server's message under Email, with 'Sign in instead.' as a real link", async () => {
    const message = 'An account with this email already exists. Sign in instead.';
    stubServer(() => json(409, { success: false, error: { code: 'EMAIL_TAKEN', message } }));
    const events = userEvent.setup();
    renderWithProviders(<RegisterPage />);
    expect(document.title).toBe('Create your account · Switchboard');
    await events.type(screen.getByLabelText('Company name'), 'Analytical Engines');
    await events.type(screen.getByLabelText('Full name'), 'Ada Lovelace');
    await events.type(screen.getByLabelText('Email'), 'ada@example.com');
    await events.type(screen.getByLabelText('Password'), 'long enough password');
    await events.click(screen.getByRole('button', { name: 'Create account' }));

    const email = screen.getByLabelText('Email');
    const error = await screen.findByText((_, el) => el?.id === `${email.id}-error`);
    expect(error.textContent).toBe(message);
    expect(within(error).getByRole('link', { name: 'Sign in instead.' }).getAttribute('href')).toBe('/login');
    expect(document.activeElement).toBe(email);
  });
});
