import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { session } from '@/lib/services';
import { companyDeletedNotice } from '@/lib/session-notice';
import { deferred, endpoints, fail, ok, type Recorded, renderWithProviders, signInAs, stubServer, urlOf } from '@/test-utils';
import { CompanyPage } from './company-page';

afterEach(() => window.sessionStorage.clear());

/** The server: the retention setting (kept), and `answer` for everything else. */
const server = (answer: (r: Recorded) => Response | Promise<Response>) =>
  stubServer((r) =>
    r.url === urlOf(endpoints.getRetention) && r.method === 'GET' ? ok({ retention: { messageRetentionDays: null } }) : answer(r),
  );
const deletions = (requests: Recorded[]) => requests.filter((r) => r.method === 'DELETE');

describe('CompanyPage: Delete company', () => {
  it('is the owner’s only: admins and agents see no danger zone', () => {
    for (const role of ['ADMIN', 'AGENT'] as const) {
      signInAs(role);
      server(() => ok({}));
      const { unmount } = renderWithProviders(<CompanyPage />);
      expect(screen.queryByRole('button', { name: 'Delete company' })).toBeNull();
      unmount();
    }
  });

  it('asks for the company’s name, enabling the button only once it matches; Cancel sends nothing', async () => {
    signInAs('OWNER');
    const requests = server(() => ok({}));
    const events = userEvent.setup();
    renderWithProviders(<CompanyPage />);
    const open = screen.getByRole('button', { name: 'Delete company' });
    await events.click(open);
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Analytical Engines?' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete company' });
    expect(confirm).toHaveProperty('disabled', true);
    const field = within(dialog).getByLabelText('Type Analytical Engines to confirm');
    // The answer is typed: focus starts in the field, not on Cancel.
    await waitFor(() => expect(document.activeElement).toBe(field));
    await events.type(field, 'analytical engines');
    expect(confirm).toHaveProperty('disabled', true);
    await events.clear(field);
    await events.type(field, 'Analytical Engines');
    expect(confirm).toHaveProperty('disabled', false);
    await events.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(document.activeElement).toBe(open);
    expect(deletions(requests)).toEqual([]);
    expect(session.get()).not.toBeNull();
  });

  it('shows the server’s refusal in the dialog, and once deleted signs out with a notice for the login page', async () => {
    signInAs('OWNER');
    let answer = fail(503, 'The service is busy right now. Please try again in a moment.', 'SERVICE_UNAVAILABLE');
    const requests = server(() => answer);
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
    expect(deletions(requests).map((r) => [r.method, r.url, r.body])).toEqual([
      ['DELETE', urlOf(endpoints.deleteCompany), { confirm: 'Analytical Engines' }],
      ['DELETE', urlOf(endpoints.deleteCompany), { confirm: 'Analytical Engines' }],
    ]);
  });
});

describe('CompanyPage: Message retention', () => {
  it('shows the setting, lets owners and admins change it, and agents only read it', async () => {
    signInAs('ADMIN');
    const requests = server((r) => ok({ retention: r.body }));
    const events = userEvent.setup();
    const { unmount } = renderWithProviders(<CompanyPage />);
    const select = await screen.findByRole('combobox', { name: 'Keep messages and calls' });
    await waitFor(() => expect((select as HTMLSelectElement).value).toBe('keep'));
    await events.selectOptions(select, 'Delete after 90 days');
    await waitFor(() => expect((select as HTMLSelectElement).value).toBe('90'));
    expect((await screen.findByRole('status')).textContent).toBe('Message retention saved.');
    expect(screen.queryByText('Only the owner and admins can change these settings.')).toBeNull();
    expect(requests.filter((r) => r.method === 'PUT')).toEqual([
      { method: 'PUT', url: urlOf(endpoints.updateRetention), body: { messageRetentionDays: 90 } },
    ]);
    unmount();

    signInAs('AGENT');
    renderWithProviders(<CompanyPage />);
    const readOnly = await screen.findByRole('combobox', { name: 'Keep messages and calls' });
    expect(readOnly).toHaveProperty('disabled', true);
    expect(screen.getByText('Only the owner and admins can change these settings.')).toBeTruthy();
  });

  it('waits, disabled, while the owner’s change is saved, then says it was saved', async () => {
    signInAs('OWNER');
    const saving = deferred();
    server(() => saving.promise);
    const events = userEvent.setup();
    renderWithProviders(<CompanyPage />);
    const select = (await screen.findByRole('combobox', { name: 'Keep messages and calls' })) as HTMLSelectElement;
    await waitFor(() => expect(select.disabled).toBe(false));
    await events.selectOptions(select, 'Delete after 90 days');
    await waitFor(() => expect(select.disabled).toBe(true));
    saving.release(ok({ retention: { messageRetentionDays: 90 } }));
    expect((await screen.findByRole('status')).textContent).toBe('Message retention saved.');
    expect(select.disabled).toBe(false);
    expect(select.value).toBe('90');
  });
});

describe('CompanyPage: company name', () => {
  it('the owner renames the company; the session shows the new name', async () => {
    signInAs('OWNER');
    const requests = server(() => ok({ company: { id: 'c1', name: 'Difference Engines' } }));
    const events = userEvent.setup();
    renderWithProviders(<CompanyPage />);
    const field = screen.getByLabelText('Company name') as HTMLInputElement;
    expect(field.value).toBe('Analytical Engines');
    expect(screen.getByRole('button', { name: 'Save company name' })).toHaveProperty('disabled', true);
    await events.clear(field);
    await events.type(field, 'Difference Engines');
    await events.click(screen.getByRole('button', { name: 'Save company name' }));
    expect(await screen.findByText('The company name was saved.')).toBeTruthy();
    expect(session.get()?.company.name).toBe('Difference Engines');
    expect(requests.filter((r) => r.method === 'PATCH')).toEqual([
      { url: urlOf(endpoints.renameCompany), method: 'PATCH', body: { name: 'Difference Engines' } },
    ]);
  });

  it('shows the server’s refusal and keeps what was typed', async () => {
    signInAs('OWNER');
    server(() => fail(503, 'The service is busy right now. Please try again in a moment.', 'SERVICE_UNAVAILABLE'));
    const events = userEvent.setup();
    renderWithProviders(<CompanyPage />);
    const field = screen.getByLabelText('Company name') as HTMLInputElement;
    await events.clear(field);
    await events.type(field, 'Difference Engines');
    await events.click(screen.getByRole('button', { name: 'Save company name' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The service is busy right now. Please try again in a moment.');
    expect(field.value).toBe('Difference Engines');
    expect(session.get()?.company.name).toBe('Analytical Engines');
  });

  it('admins and agents read the name and are told only the owner changes it', () => {
    for (const role of ['ADMIN', 'AGENT'] as const) {
      signInAs(role);
      server(() => ok({}));
      const { unmount } = renderWithProviders(<CompanyPage />);
      expect(screen.getByLabelText('Company name')).toHaveProperty('readOnly', true);
      expect(screen.getByText('Only the owner can change the company name.')).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Save company name' })).toBeNull();
      unmount();
    }
  });
});
