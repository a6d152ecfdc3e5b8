import type { RepointResult, WebhookAddress } from '@shared/contract/admin';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { deferred, endpoints, fail, ok, renderWithProviders, stubServer, urlOf } from '@/test-utils';
import { WebhookAddressPanel } from './webhook-address-panel';

const BASE = 'https://support.example.com/webhooks/twilio';
const address = (companies: number, numbers: number): { webhookAddress: WebhookAddress } => ({
  webhookAddress: { webhookBase: BASE, pointingElsewhere: { companies, numbers } },
});
const pass = (companies: number, numbers: number, nextCursor: string | null, failures: RepointResult['failures'] = []) => ({
  repoint: { webhookBase: BASE, repointed: { companies, numbers }, failures, nextCursor },
});

describe('WebhookAddressPanel', () => {
  it('re-points pass after pass once confirmed, shows the totals and what failed, and reads the address again', async () => {
    let repointed = false;
    const secondPass = deferred();
    const requests = stubServer((r) => {
      if (r.url === urlOf(endpoints.webhookAddress)) return ok(repointed ? address(1, 1) : address(2, 5));
      if (!(r.body as { cursor?: string }).cursor) return ok(pass(1, 3, 'next'));
      repointed = true;
      return secondPass.promise;
    });
    const events = userEvent.setup();
    renderWithProviders(<WebhookAddressPanel />);

    const panel = await screen.findByRole('region', { name: 'Webhook address' });
    expect(await within(panel).findByText(BASE)).toBeTruthy();
    expect(within(panel).getByText('5 numbers of 2 companies point elsewhere')).toBeTruthy();

    await events.click(within(panel).getByRole('button', { name: 'Re-point numbers' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Re-point every company’s numbers?' });
    expect(dialog.textContent).toContain(BASE);
    await events.click(within(dialog).getByRole('button', { name: 'Re-point numbers' }));

    // The first pass is in; the second is under way.
    expect(await within(dialog).findByText('3 numbers of 1 company re-pointed so far...')).toBeTruthy();
    const pending = within(dialog).getByRole('button', { name: 'Re-pointing...' });
    expect(pending).toHaveProperty('disabled', true);
    await events.keyboard('{Escape}');
    expect(screen.getByRole('alertdialog')).toBeTruthy();

    const failure = {
      companyId: 'c-2',
      companyName: 'Globex',
      phoneNumber: '+15005550006',
      reason: 'Twilio no longer has this number in the account.',
    };
    secondPass.release(ok(pass(1, 1, null, [failure])));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    expect(within(panel).getByText(`Re-pointed 4 numbers of 2 companies to ${BASE}.`)).toBeTruthy();
    expect(within(panel).getByText('1 item could not be re-pointed')).toBeTruthy();
    expect(within(panel).getByText('Globex').closest('li')?.textContent).toBe(
      'Globex · +15005550006: Twilio no longer has this number in the account.',
    );
    expect(await within(panel).findByText('1 number of 1 company point elsewhere')).toBeTruthy();
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([{}, { cursor: 'next' }]);
  });

  it('sends nothing when cancelled, says when every number points here, and keeps the dialog open on a failure', async () => {
    const requests = stubServer((r) => {
      if (r.url === urlOf(endpoints.webhookAddress)) return ok(address(0, 0));
      return fail(502, 'Twilio could not be reached.', 'PROVIDER_UNAVAILABLE');
    });
    const events = userEvent.setup();
    renderWithProviders(<WebhookAddressPanel />);
    expect(await screen.findByText('Every number points here')).toBeTruthy();

    await events.click(screen.getByRole('button', { name: 'Re-point numbers' }));
    await events.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(requests.some((r) => r.method === 'POST')).toBe(false);

    await events.click(screen.getByRole('button', { name: 'Re-point numbers' }));
    const dialog = screen.getByRole('alertdialog');
    await events.click(within(dialog).getByRole('button', { name: 'Re-point numbers' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Twilio could not be reached. Re-point again to go on: what is done is skipped.',
    );
    expect(within(dialog).getByRole('button', { name: 'Re-point numbers' })).toHaveProperty('disabled', false);
  });

  it('says so when the address cannot be read, and offers no re-point', async () => {
    stubServer(() => new Response('gateway down', { status: 502 }));
    renderWithProviders(<WebhookAddressPanel />);
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load the webhook address');
    expect(screen.getByRole('button', { name: 'Re-point numbers' })).toHaveProperty('disabled', true);
  });
});
