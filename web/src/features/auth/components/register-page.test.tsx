import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ok, renderWithProviders, stubServer } from '@/test-utils';
import { RegisterPage } from './register-page';

/** The message a field is described by (its error, next to it). */
const description = (field: HTMLElement) =>
  (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ');

describe('RegisterPage', () => {
  it('names every field in error at once, each invalid and described by its message, and focuses the first', async () => {
    const requests = stubServer(() => ok({}));
    const events = userEvent.setup();
    renderWithProviders(<RegisterPage />);
    await events.click(screen.getByRole('button', { name: 'Create account' }));
    const expected = {
      'Company name': 'Company name is required',
      'Full name': 'Full name is required',
      Email: 'Email is required',
      Password: 'Password is required',
    };
    for (const [label, message] of Object.entries(expected)) {
      const field = screen.getByLabelText(label);
      expect(field.getAttribute('aria-invalid'), label).toBe('true');
      expect(description(field), label).toBe(message);
    }
    expect(document.activeElement).toBe(screen.getByLabelText('Company name'));
    expect(requests).toEqual([]);
  });

  it('checks the e-mail and the password length with the rest, before anything is sent', async () => {
    const requests = stubServer(() => ok({}));
    const events = userEvent.setup();
    renderWithProviders(<RegisterPage />);
    await events.type(screen.getByLabelText('Company name'), 'Globex');
    await events.type(screen.getByLabelText('Email'), 'grace@');
    await events.type(screen.getByLabelText('Password'), 'short');
    await events.click(screen.getByRole('button', { name: 'Create account' }));
    expect(description(screen.getByLabelText('Full name'))).toBe('Full name is required');
    expect(description(screen.getByLabelText('Email'))).toBe('Enter a valid email address');
    expect(description(screen.getByLabelText('Password'))).toBe('Password must be at least 8 characters long');
    expect(screen.getByLabelText('Company name').getAttribute('aria-invalid')).toBeNull();
    expect(document.activeElement).toBe(screen.getByLabelText('Full name'));
    expect(requests).toEqual([]);
  });
});
