import type { AdminCompany, AdminOverview } from '@shared/contract/admin';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { session } from '@/lib/services';
import {
  deferred,
  endpoints,
  fail,
  ok,
  renderWithProviders,
  sampleCompany,
  sampleUser,
  signInAs,
  stubServer,
  urlOf,
} from '@/test-utils';
import { AdminPage } from './admin-page';

const ACME: AdminCompany = {
  id: 'c-1',
  name: 'Acme Support',
  owner: { name: 'Ada Lovelace', email: 'ada@acme.test', emailVerified: true },
  twilioConfigured: true,
  hasActivity: true,
  stats: { smsSent: 12, smsReceived: 34 },
  createdAt: '2026-03-04T10:00:00.000Z',
};
const GLOBEX: AdminCompany = {
  ...ACME,
  id: 'c-2',
  name: 'Globex',
  owner: { name: 'Hank Scorpio', email: 'hank@globex.test', emailVerified: false },
  twilioConfigured: false,
  hasActivity: false,
  stats: { smsSent: 0, smsReceived: 0 },
};
const overview = (
  companies: AdminCompany[],
  nextCursor: string | null,
  totals: Pick<AdminOverview, 'totalCompanies' | 'totalUsers' | 'verifiedUsers'> = {
    totalCompanies: 2,
    totalUsers: 3,
    verifiedUsers: 2,
  },
): AdminOverview => ({ ...totals, companies, nextCursor });

const signInWith = (isPlatformAdmin: boolean) =>
  session.signIn({
    user: { ...sampleUser, isPlatformAdmin },
    company: sampleCompany,
    tokens: { accessToken: 'a', refreshToken: 'r' },
  });
const signInAsPlatformAdmin = () => signInWith(true);

/**
 * The server: /me says whether the operator names the user now; the webhook address is all in place
 * (webhook-address-panel.test.tsx tells its story); the overview answers `overviewAnswer`.
 */
const server = (isPlatformAdmin: boolean, overviewAnswer: (url: string) => Response | Promise<Response>) =>
  stubServer((r) => {
    if (r.url === urlOf(endpoints.me)) return ok({ user: { ...sampleUser, isPlatformAdmin }, company: sampleCompany });
    if (r.url === urlOf(endpoints.webhookAddress) && isPlatformAdmin)
      return ok({
        webhookAddress: { webhookBase: 'https://app.example/webhooks/twilio', pointingElsewhere: { companies: 0, numbers: 0 } },
      });
    return overviewAnswer(r.url);
  });
const overviewUrls = (requests: { url: string }[]) =>
  requests.map((r) => r.url).filter((url) => url.startsWith(urlOf(endpoints.adminOverview)));

afterEach(() => session.clear());

describe('AdminPage', () => {
  it('shows the totals with the rounded verified percentage and each company, page by page', async () => {
    signInAsPlatformAdmin();
    const requests = server(true, (url) => ok(url.includes('cursor=') ? overview([GLOBEX], null) : overview([ACME], 'next')));
    const events = userEvent.setup();
    renderWithProviders(<AdminPage />);
    expect(await screen.findByText('67% verified')).toBeTruthy();
    const acme = screen.getByText('Acme Support').closest('tr') as HTMLElement;
    expect(acme.textContent).toContain('Ada Lovelace');
    expect(acme.textContent).toContain('ada@acme.test · Verified');
    expect(within(acme).getByText('Configured')).toBeTruthy();
    expect(within(acme).getByText('Active')).toBeTruthy();
    expect(within(acme).getByText('12')).toBeTruthy();
    expect(within(acme).getByText('34')).toBeTruthy();

    await events.click(screen.getByRole('button', { name: 'Load More' }));
    const globex = (await screen.findByText('Globex')).closest('tr') as HTMLElement;
    expect(globex.textContent).toContain('Not verified');
    expect(within(globex).getByText('Not configured')).toBeTruthy();
    expect(within(globex).getByText('No activity')).toBeTruthy();
    expect(overviewUrls(requests)).toEqual([
      urlOf(endpoints.adminOverview),
      urlOf(endpoints.adminOverview, {}, { cursor: 'next' }),
    ]);
    expect(screen.queryByRole('button', { name: 'Load More' })).toBeNull();
  });

  it('refuses a user who is not a platform administrator without asking for the overview', async () => {
    signInAs('OWNER');
    const requests = server(false, () => ok(overview([], null)));
    renderWithProviders(<AdminPage />);
    expect(await screen.findByRole('heading', { name: 'Access denied. Admin privileges required.' })).toBeTruthy();
    expect(screen.getByText('Only platform administrators can access this page.')).toBeTruthy();
    expect(requests.map((r) => r.url)).toEqual([urlOf(endpoints.me)]);
  });

  it('reads the user again: one the operator named since sign-in sees the overview, and the stored user says so', async () => {
    signInWith(false);
    server(true, () => ok(overview([ACME], null)));
    renderWithProviders(<AdminPage />);
    expect(await screen.findByText('Acme Support')).toBeTruthy();
    expect(session.get()?.user.isPlatformAdmin).toBe(true);
  });

  it('reads the user again: one the operator no longer names is refused, and the stored user says so', async () => {
    signInWith(true);
    const requests = server(false, () => fail(403, 'Access denied. Admin privileges required.', 'FORBIDDEN'));
    renderWithProviders(<AdminPage />);
    expect(await screen.findByRole('heading', { name: 'Access denied. Admin privileges required.' })).toBeTruthy();
    await waitFor(() => expect(session.get()?.user.isPlatformAdmin).toBe(false));
    expect(screen.queryByText('Acme Support')).toBeNull();
    expect(requests.map((r) => r.url)).toContain(urlOf(endpoints.me));
  });

  it('shows the 403 text when the server refuses, and the fallback for other failures', async () => {
    signInAsPlatformAdmin();
    server(true, () => fail(403, 'Access denied. Admin privileges required.', 'FORBIDDEN'));
    const { unmount } = renderWithProviders(<AdminPage />);
    expect(await screen.findByRole('heading', { name: 'Access denied. Admin privileges required.' })).toBeTruthy();
    unmount();
    server(true, () => new Response('gateway down', { status: 502 }));
    renderWithProviders(<AdminPage />);
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load admin data');
  });

  it('deletes a company once its name is typed, shows it is deleting, then lists the companies and the totals again', async () => {
    signInAsPlatformAdmin();
    let deleted = false;
    const deletion = deferred();
    const requests = server(true, (url) => {
      if (url !== urlOf(endpoints.adminDeleteCompany, { id: 'c-2' })) {
        return ok(
          deleted
            ? overview([ACME], null, { totalCompanies: 1, totalUsers: 2, verifiedUsers: 2 })
            : overview([ACME, GLOBEX], null),
        );
      }
      deleted = true;
      return deletion.promise;
    });
    const events = userEvent.setup();
    renderWithProviders(<AdminPage />);
    const total = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
    await events.click(await screen.findByRole('button', { name: 'Delete Globex' }));
    expect([total('Companies'), total('Users')]).toEqual(['2', '3']);
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Globex?' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete company' });
    expect(confirm).toHaveProperty('disabled', true);
    await events.type(within(dialog).getByLabelText('Type Globex to confirm'), 'Globex');
    await events.click(confirm);
    expect(within(dialog).getByRole('button', { name: 'Deleting...' })).toHaveProperty('disabled', true);
    deletion.release(ok({ deletion: { companyId: 'c-2', status: 'DELETING' } }, 202));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(screen.queryByText('Globex')).toBeNull());
    await waitFor(() => expect([total('Companies'), total('Users')]).toEqual(['1', '2']));
    const sent = requests.find((r) => r.method === 'DELETE');
    expect(sent).toMatchObject({ url: urlOf(endpoints.adminDeleteCompany, { id: 'c-2' }), body: { confirm: 'Globex' } });
    expect(session.get()).not.toBeNull();
  });
});
