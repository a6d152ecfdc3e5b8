import type { ChannelHealth } from '@shared/contract/channel-health';
import type { Channel } from '@shared/contract/settings';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { deferred, endpoints, fail, ok, renderWithProviders, signInAs, stubServer, urlOf } from '@/test-utils';
import { ChannelsPage } from './channels-page';

const CHANNEL: Channel = {
  id: 'ch-1',
  type: 'PHONE',
  identifier: '+14155550101',
  friendlyName: 'Main line',
  status: 'ACTIVE',
  capabilities: { voice: true, sms: true, mms: false },
  routingType: 'UNASSIGNED',
  routingTargetId: null,
  routingTarget: null,
  providerId: 'prov-1',
  createdAt: '2025-01-01T00:00:00.000Z',
  health: { status: 'DRIFTED', checkedAt: new Date().toISOString() },
};

const HEALTH: ChannelHealth = {
  status: 'DRIFTED',
  checkedAt: new Date().toISOString(),
  problems: [
    {
      field: 'SmsUrl',
      expected: 'https://switchboard.example/webhooks/twilio/wh-1/sms',
      actual: 'https://elsewhere.example/sms',
      message: 'Texts to this number go to https://elsewhere.example/sms instead of Switchboard.',
      repairable: true,
    },
    {
      field: 'MessagingService',
      expected: 'true',
      actual: 'MG0123456789abcdef0123456789abcdef',
      messagingService: {
        sid: 'MG0123456789abcdef0123456789abcdef',
        friendlyName: 'A2P campaign',
        inboundRequestUrl: 'https://studio.example/flow',
        otherNumbers: 3,
      },
      message: 'The number is in the Messaging Service A2P campaign, which sends its texts to https://studio.example/flow.',
      repairable: true,
    },
    { field: 'VoiceApplicationSid', expected: null, actual: 'AP01', message: 'Calls go to a TwiML app.', repairable: false },
  ],
  delivery: {
    since: '2026-01-01T00:00:00.000Z',
    sent: 12,
    delivered: 7,
    failed: 1,
    undelivered: 4,
    errors: [
      { code: 30003, count: 3, message: 'The handset is unreachable.', advice: 'Try again later, or call them.' },
      { code: 21610, count: 1, message: 'The recipient opted out (STOP).', advice: 'They must text START first.' },
    ],
  },
};

const openDetails = async () => {
  renderWithProviders(<ChannelsPage />);
  await userEvent.setup().click(await screen.findByRole('button', { name: 'Health details for (415) 555-0101' }));
  return screen.getByRole('dialog', { name: 'Channel Health' });
};
const described = (dl: HTMLElement) =>
  [...dl.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]);

beforeEach(() => signInAs('AGENT'));

describe('Channel health details', () => {
  it('lists every problem (field, expected, actual, the service) and the delivery summary with each error in words', async () => {
    stubServer((r) =>
      r.url === urlOf(endpoints.getChannelHealth, { id: 'ch-1' }) ? ok({ health: HEALTH }) : ok({ channels: [CHANNEL] }),
    );
    const dialog = within(await openDetails());
    expect(dialog.getByText('(415) 555-0101')).toBeTruthy();
    expect(dialog.getByText('Drifted')).toBeTruthy();
    expect(dialog.getByText('Last checked just now')).toBeTruthy();
    // The details scroll on a small screen: the keyboard reaches them.
    expect(dialog.getByRole('region', { name: 'Health details' }).tabIndex).toBe(0);

    const problems = dialog.getByRole('region', { name: 'Problems' });
    const items = within(problems).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(within(items[0] as HTMLElement).getByText(HEALTH.problems[0]?.message as string)).toBeTruthy();
    expect(described(items[0]?.querySelector('dl') as HTMLElement)).toEqual([
      ['Field', 'SmsUrl'],
      ['Expected', 'https://switchboard.example/webhooks/twilio/wh-1/sms'],
      ['Actual', 'https://elsewhere.example/sms'],
    ]);
    expect(described(items[1]?.querySelector('dl') as HTMLElement)).toEqual([
      ['Field', 'MessagingService'],
      ['Expected', 'true'],
      ['Actual', 'MG0123456789abcdef0123456789abcdef'],
      ['Messaging Service', 'A2P campaign (MG0123456789abcdef0123456789abcdef)'],
      ['Its inbound URL', 'https://studio.example/flow'],
      ['Its other numbers', '3'],
    ]);
    expect(described(items[2]?.querySelector('dl') as HTMLElement)[1]).toEqual(['Expected', 'Not set']);
    expect(within(items[2] as HTMLElement).getByText('Repair cannot change this: it is done in Twilio.')).toBeTruthy();
    expect(within(items[0] as HTMLElement).queryByText(/Repair cannot/)).toBeNull();

    const delivery = dialog.getByRole('region', { name: /^Texts sent since / });
    expect(described(delivery.querySelector('dl') as HTMLElement)).toEqual([
      ['Sent', '12'],
      ['Delivered', '7'],
      ['Failed', '1'],
      ['Undelivered', '4'],
    ]);
    const errors = within(within(delivery).getByRole('list', { name: 'Delivery errors' })).getAllByRole('listitem');
    expect(errors.map((e) => e.textContent)).toEqual([
      'Error 30003: The handset is unreachable. (3 texts)Try again later, or call them.',
      'Error 21610: The recipient opted out (STOP). (1 text)They must text START first.',
    ]);
  });

  it('says so when there is no problem and no delivery error, and shows a loading state first', async () => {
    const answer = deferred();
    stubServer((r) =>
      r.url === urlOf(endpoints.getChannelHealth, { id: 'ch-1' })
        ? answer.promise
        : ok({ channels: [{ ...CHANNEL, health: { status: 'HEALTHY', checkedAt: null } }] }),
    );
    const dialog = within(await openDetails());
    expect(dialog.getByRole('status').textContent).toBe('Loading health...');
    answer.release(
      ok({
        health: {
          ...HEALTH,
          status: 'HEALTHY',
          problems: [],
          delivery: { ...HEALTH.delivery, sent: 0, delivered: 0, failed: 0, undelivered: 0, errors: [] },
        },
      }),
    );
    expect(await dialog.findByText('No problems found.')).toBeTruthy();
    expect(dialog.getByText('No delivery errors.')).toBeTruthy();
  });

  it('a details view that cannot load says why, and closes with Escape, focus back on its button', async () => {
    stubServer((r) =>
      r.url === urlOf(endpoints.getChannelHealth, { id: 'ch-1' })
        ? fail(404, 'Channel not found', 'NOT_FOUND')
        : ok({ channels: [CHANNEL] }),
    );
    const events = userEvent.setup();
    const dialog = within(await openDetails());
    expect((await dialog.findByRole('alert')).textContent).toBe(
      'The health of this channel could not be loaded.Channel not found',
    );
    await events.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement?.textContent).toBe('Health details for (415) 555-0101');
  });
});
