import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { session } from '../../../lib/services';
import { companyDeletedNotice } from '../../../lib/session-notice';
import { fail, ok, renderWithProviders, signInAs, stubServer } from '../../../test-utils';
import { CompanyPage } from './company-page';

afterEach(() => window.sessionStorage.clear());

describe('CompanyPage: Delete company', () => {
  it('is the owner’s only: admins and agents see no danger zone', () => {
    for (const role of ['ADMIN', 'AGENT'] as const) {
      signInAs(role);
      const { unmount } = renderWithProviders(<CompanyPage />);
      expect(screen.queryByRole('button', { name: 'Delete company' })).toBeNull();
      unmount();
    }
  });

  it('asks for the company’s name, enabling the button only once it matches; Cancel sends nothing', async () => {
    signInAs('OWNER');
    const requests = stubServer(() => ok({}));
    const events = userEvent.setup();
    renderWithProviders(<CompanyPage />);
    const open = screen.getByRole('button', { name: 'Delete company' });
    await events.click(open);
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Analytical Engines?' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete company' });
    expect(confirm).toHaveProperty('disabled', true);
    const field = within(dialog).getByLabelText('Type Analytical Engines to confirm');
    await events.type(field, 'analytical engines');
    expect(confirm).toHaveProperty('disabled', true);
    await events.clear(field);
    await events.type(field, 'Analytical Engines');
    expect(confirm).toHaveProperty('disabled', false);
    await events.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(document.activeElement).toBe(open);
    expect(requests).toEqual([]);
    expect(session.get()).not.toBeNull();
  });

  it('shows the server’s refusal in the dialog, and once deleted signs out with a notice for the login page', async () => {
    signInAs('OWNER');
    let answer = fail(503, 'The service is busy right now. Please try again in a moment.', 'SERVICE_UNAVAILABLE');
    const requests = stubServer(() => answer);
    const events = userEvent.setup();
    renderWithProviders(<CompanyPage />);
    await events.click(screen.getByRole('button', { name: 'Delete company' }));
    const dialog = screen.getByRole('alertdialog');
    await events.type(within(dialog).getByLabelText('Type Analytical Engines to confirm'), 'Analytical Engines');
    await events.click(within(dialog).getByRole('button', { name: 'Delete company' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'The service is busy right now. Please try again in a moment.',
    );
    expect(session.get()).not.toBeNull();

    answer = ok({ deletion: { companyId: 'c1', status: 'DELETING' } }, 202);
    await events.keyboard('{Enter}');
    await waitFor(() => expect(session.get()).toBeNull());
    expect(companyDeletedNotice()).toBe(true);
    expect(requests.map((r) => [r.method, r.url, r.body])).toEqual([
      ['DELETE', '/api/v1/company', { confirm: 'Analytical Engines' }],
      ['DELETE', '/api/v1/company', { confirm: 'Analytical Engines' }],
    ]);
  });
});
