import type { ChannelHealth, ChannelHealthStatus, HealthProblem } from '@shared/contract/channel-health';
import type { Channel } from '@shared/contract/settings';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { formatDate } from '@/lib/format-date';
import { settingsKeys } from '@/lib/settings-queries';
import {
  deferred,
  endpoints,
  fail,
  json,
  ok,
  type Recorded,
  renderWithProviders,
  signInAs,
  stubServer,
  urlOf,
} from '@/test-utils';
import { ChannelsPage } from './channels-page';

const CHECKED_AT = new Date(Date.now() - 5 * 60_000).toISOString();
const channel = (status: ChannelHealthStatus, id = 'ch-1', identifier = '+14155550101'): Channel => ({
  id,
  type: 'PHONE',
  identifier,
  friendlyName: 'Main line',
  status: 'ACTIVE',
  capabilities: { voice: true, sms: true, mms: false },
  routingType: 'UNASSIGNED',
  routingTargetId: null,
  routingTarget: null,
  providerId: 'prov-1',
  createdAt: '2025-01-01T00:00:00.000Z',
  health: { status, checkedAt: status === 'UNCHECKED' ? null : CHECKED_AT },
});

const OURS = 'https://switchboard.example/webhooks/twilio/wh-1/sms';
const DRIFT: HealthProblem = {
  field: 'SmsUrl',
  expected: OURS,
  actual: 'https://elsewhere.example/sms',
  message: 'Texts to this number go to https://elsewhere.example/sms instead of Switchboard.',
  repairable: true,
};
const DELIVERY = { since: '2026-01-01T00:00:00.000Z', sent: 0, delivered: 0, failed: 0, undelivered: 0, errors: [] };
const health = (status: ChannelHealthStatus, problems: HealthProblem[] = []): ChannelHealth => ({
  status,
  checkedAt: CHECKED_AT,
  problems,
  delivery: DELIVERY,
});

const HEALTH_URL = urlOf(endpoints.getChannelHealth, { id: 'ch-1' });
const REPAIR_URL = urlOf(endpoints.repairChannel, { id: 'ch-1' });

function server(
  channels: Channel[],
  routes: {
    health?: ChannelHealth;
    refresh?: () => Response | Promise<Response>;
    repair?: () => Response | Promise<Response>;
  } = {},
) {
  return stubServer((request: Recorded) => {
    if (request.url === urlOf(endpoints.listChannels)) return ok({ channels });
    if (request.url === HEALTH_URL) return ok({ health: routes.health ?? health('HEALTHY') });
    if (request.url === `${HEALTH_URL}?refresh=true`) return routes.refresh?.() ?? ok({ health: health('HEALTHY') });
    if (request.url === REPAIR_URL && request.method === 'POST') return routes.repair?.() ?? json(404, {});
    return json(404, {});
  });
}

const row = (text: string) => screen.getByText(text).closest('li') as HTMLElement;
const button = (name: RegExp) => screen.getByRole('button', { name }) as HTMLButtonElement;

beforeEach(() => signInAs('OWNER'));

describe('Channel health on the Channels page', () => {
  it('names each status in words on a badge, read as Health: …', async () => {
    const words: [ChannelHealthStatus, string][] = [
      ['HEALTHY', 'Healthy'],
      ['DRIFTED', 'Drifted'],
      ['NUMBER_GONE', 'Number gone'],
      ['CREDENTIALS_REFUSED', 'Credentials refused'],
      ['PROVIDER_UNREACHABLE', 'Twilio unreachable'],
      ['UNCHECKED', 'Not checked yet'],
    ];
    server(words.map(([status], i) => channel(status, `ch-${i}`, `+1415555010${i}`)));
    renderWithProviders(<ChannelsPage />);
    await screen.findByText('(415) 555-0100');
    const badges = screen.getAllByRole('status').filter((s) => s.textContent?.startsWith('Health: '));
    expect(badges.map((b) => b.textContent)).toEqual(words.map(([, word]) => `Health: ${word}`));
    expect(within(row('(415) 555-0100')).getByText('Checked 5m ago')).toBeTruthy();
    expect(within(row('(415) 555-0105')).queryByText(/^Checked/)).toBeNull();
  });

  it('a check older than a week reads as its date, as written elsewhere in the app', async () => {
    server([{ ...channel('HEALTHY'), health: { status: 'HEALTHY', checkedAt: '2025-03-04T12:00:00.000Z' } }]);
    renderWithProviders(<ChannelsPage />);
    expect(await screen.findByText(`Checked ${formatDate('2025-03-04T12:00:00.000Z')}`)).toBeTruthy();
  });

  it('a healthy number shows no problem sentence and no Repair, and asks for no details', async () => {
    const requests = server([channel('HEALTHY'), channel('HEALTHY', 'ch-2', '+14155550102')]);
    renderWithProviders(<ChannelsPage />);
    await screen.findByText('(415) 555-0101');
    expect(screen.queryByRole('button', { name: /^Repair/ })).toBeNull();
    expect(screen.getAllByRole('button', { name: /^Check now/ })).toHaveLength(2);
    expect(requests.some((r) => r.url.includes('/health'))).toBe(false);
  });

  it('a number never checked is asked about (the server checks it then), and shows that check', async () => {
    const requests = server([channel('UNCHECKED')], { health: health('DRIFTED', [DRIFT]) });
    renderWithProviders(<ChannelsPage />);
    expect(await screen.findByText(DRIFT.message)).toBeTruthy();
    expect(within(row('(415) 555-0101')).getByText('Drifted')).toBeTruthy();
    expect(within(row('(415) 555-0101')).getByText('Checked 5m ago')).toBeTruthy();
    expect(requests.map((r) => r.url)).toContain(HEALTH_URL);
    expect(button(/^Repair/)).toBeTruthy();
  });

  it("a drifted number shows its first problem's sentence, falling back to the status's words while it loads", async () => {
    const details = deferred();
    stubServer((r) => (r.url === HEALTH_URL ? details.promise : ok({ channels: [channel('DRIFTED')] })));
    renderWithProviders(<ChannelsPage />);
    expect(await screen.findByText('Twilio sends this number’s calls or texts somewhere else.')).toBeTruthy();
    details.release(ok({ health: health('DRIFTED', [DRIFT, { ...DRIFT, field: 'VoiceUrl', message: 'Calls go elsewhere.' }]) }));
    expect(await screen.findByText(DRIFT.message)).toBeTruthy();
    expect(screen.queryByText('Calls go elsewhere.')).toBeNull();
    expect(button(/^Repair/).getAttribute('aria-describedby')).toBe(screen.getByText(DRIFT.message).id);
  });

  it('Repair: pending while it runs, then what it changed, and the badge turns Healthy', async () => {
    const repair = deferred();
    const requests = server([channel('DRIFTED')], { health: health('DRIFTED', [DRIFT]), repair: () => repair.promise });
    const events = userEvent.setup();
    renderWithProviders(<ChannelsPage />);
    await screen.findByText(DRIFT.message);
    await events.click(button(/^Repair for \(415\) 555-0101$/));
    const question = within(screen.getByRole('alertdialog'));
    await events.click(question.getByRole('button', { name: 'Repair' }));

    const pending = question.getByRole('button', { name: /^Repairing\.\.\.$/ }) as HTMLButtonElement;
    expect(pending.disabled).toBe(true);
    expect(pending.getAttribute('aria-busy')).toBe('true');
    expect(requests.filter((r) => r.url === REPAIR_URL && r.method === 'POST')).toHaveLength(1);

    repair.release(
      ok({
        health: health('HEALTHY'),
        changes: [{ field: 'SmsUrl', from: DRIFT.actual, to: OURS, message: `SmsUrl set back to ${OURS}.` }],
      }),
    );
    expect(await screen.findByText('Repaired.')).toBeTruthy();
    expect(screen.getByText(`SmsUrl set back to ${OURS}.`)).toBeTruthy();
    expect(screen.getByText('Repaired.').closest('[role="status"]')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(within(row('(415) 555-0101')).getByText('Healthy')).toBeTruthy();
    // Healthy now: nothing left to repair, and the problem's sentence is gone.
    expect(screen.queryByRole('button', { name: /^Repair/ })).toBeNull();
    expect(screen.queryByText(DRIFT.message)).toBeNull();
  });

  it('a repair that changes nothing says so', async () => {
    server([channel('DRIFTED')], {
      health: health('DRIFTED', [DRIFT]),
      repair: () => ok({ health: health('DRIFTED', [DRIFT]), changes: [] }),
    });
    const events = userEvent.setup();
    renderWithProviders(<ChannelsPage />);
    await screen.findByText(DRIFT.message);
    await events.click(button(/^Repair/));
    await events.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Repair' }));
    expect(await screen.findByText('Nothing needed changing.')).toBeTruthy();
  });

  it("a refused repair shows the server's message in the question, and keeps the health as it was", async () => {
    server([channel('DRIFTED')], {
      health: health('DRIFTED', [DRIFT]),
      repair: () => fail(502, 'Twilio refused the change: the number is locked by a Studio flow.', 'PROVIDER_ERROR'),
    });
    const events = userEvent.setup();
    renderWithProviders(<ChannelsPage />);
    await screen.findByText(DRIFT.message);
    await events.click(button(/^Repair/));
    const question = within(screen.getByRole('alertdialog'));
    await events.click(question.getByRole('button', { name: 'Repair' }));
    const alert = await question.findByRole('alert');
    expect(alert.textContent).toBe('Twilio refused the change: the number is locked by a Studio flow.');
    expect(within(row('(415) 555-0101')).getByText('Drifted')).toBeTruthy();
    // It can be tried again, or cancelled.
    expect((question.getByRole('button', { name: 'Repair' }) as HTMLButtonElement).disabled).toBe(false);
    await events.click(question.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(button(/^Repair/).disabled).toBe(false);
  });

  it('Repair first shows what each setting is now and what it becomes, and changes nothing until confirmed', async () => {
    const ZAPIER = 'https://hooks.zapier.com/hooks/catch/123/abc';
    const service: HealthProblem = {
      field: 'MessagingService',
      expected: 'UseInboundWebhookOnNumber: true',
      actual: 'MG1',
      messagingService: { sid: 'MG1', friendlyName: 'Marketing', inboundRequestUrl: 'https://crm.example/in', otherNumbers: 2 },
      message: 'The number is in the Messaging Service “Marketing”.',
      repairable: true,
    };
    const requests = server([channel('DRIFTED')], {
      health: health('DRIFTED', [{ ...DRIFT, actual: ZAPIER, message: 'Texts go to Zapier.' }, service]),
    });
    const events = userEvent.setup();
    renderWithProviders(<ChannelsPage />);
    await screen.findByText('Texts go to Zapier.');
    await events.click(button(/^Repair for \(415\) 555-0101$/));

    const question = within(screen.getByRole('alertdialog', { name: 'Repair (415) 555-0101?' }));
    const [url, inService] = question.getAllByRole('listitem') as HTMLElement[];
    expect(within(url as HTMLElement).getByText('SmsUrl')).toBeTruthy();
    expect(within(url as HTMLElement).getByText('Now').nextElementSibling?.textContent).toBe(ZAPIER);
    expect(within(url as HTMLElement).getByText('After repair').nextElementSibling?.textContent).toBe(OURS);
    expect(within(inService as HTMLElement).getByText('Now').nextElementSibling?.textContent).toBe(
      'Texts go to https://crm.example/in',
    );
    expect(within(inService as HTMLElement).getByText(/also changes the service’s 2 other numbers/)).toBeTruthy();
    expect(question.getByText('As found by the check 5m ago.')).toBeTruthy();

    await events.click(question.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(requests.some((r) => r.url === REPAIR_URL)).toBe(false);
    expect(within(row('(415) 555-0101')).getByText('Drifted')).toBeTruthy();
  });

  it('Repair of a number in a Messaging Service names the service and its other numbers, and sends only once that is confirmed too (docs/product.md §10.7)', async () => {
    const service: HealthProblem = {
      field: 'MessagingService',
      expected: 'UseInboundWebhookOnNumber: true',
      actual: 'MG1',
      messagingService: {
        sid: 'MG1',
        friendlyName: 'Marketing',
        inboundRequestUrl: 'https://crm.example/in',
        otherNumbers: 22,
        otherPhoneNumbers: ['+14155550102', '+14155550103'],
      },
      message: 'The number is in the Messaging Service “Marketing”.',
      repairable: true,
    };
    const requests = server([channel('DRIFTED')], {
      health: health('DRIFTED', [service]),
      // Another change in Twilio meanwhile: still drifted, so Repair stays.
      repair: () => ok({ health: health('DRIFTED', [service]), changes: [] }),
    });
    const events = userEvent.setup();
    renderWithProviders(<ChannelsPage />);
    await screen.findByText(service.message);
    await events.click(button(/^Repair for \(415\) 555-0101$/));

    const question = within(screen.getByRole('alertdialog', { name: 'Repair (415) 555-0101?' }));
    expect(question.getByText('Marketing (MG1)')).toBeTruthy();
    const others = question.getByRole('list', { name: 'Other numbers of Marketing' });
    expect(
      within(others)
        .getAllByRole('listitem')
        .map((n) => n.textContent),
    ).toEqual(['(415) 555-0102', '(415) 555-0103']);
    expect(question.getByText('and 20 more numbers')).toBeTruthy();
    const repairButton = question.getByRole('button', { name: 'Repair' }) as HTMLButtonElement;
    expect(repairButton.disabled).toBe(true);

    const confirm = question.getByRole('checkbox', {
      name: 'Change the Messaging Service, and with it how texts reach its other numbers',
    });
    await events.click(confirm);
    expect(repairButton.disabled).toBe(false);
    await events.click(repairButton);
    expect(await screen.findByText('Nothing needed changing.')).toBeTruthy();
    expect(requests.filter((r) => r.url === REPAIR_URL).map((r) => r.body)).toEqual([{ confirmMessagingService: true }]);

    // Asked again, the question starts unconfirmed.
    await events.click(button(/^Repair for \(415\) 555-0101$/));
    const again = within(screen.getByRole('alertdialog'));
    expect((again.getByRole('checkbox') as HTMLInputElement).checked).toBe(false);
    expect((again.getByRole('button', { name: 'Repair' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('Check now asks Twilio (refresh=true) and shows the answer: the badge and the sentence', async () => {
    const refresh = deferred();
    const requests = server([channel('HEALTHY')], {
      health: health('DRIFTED', [DRIFT]),
      refresh: () => refresh.promise,
    });
    const events = userEvent.setup();
    const { queryClient } = renderWithProviders(<ChannelsPage />);
    await screen.findByText('(415) 555-0101');
    await events.click(await screen.findByRole('button', { name: 'Check now for (415) 555-0101' }));
    expect(button(/^Checking\.\.\.$/).disabled).toBe(true);
    expect(requests.map((r) => r.url)).toContain(`${HEALTH_URL}?refresh=true`);
    refresh.release(ok({ health: health('DRIFTED', [DRIFT]) }));
    expect(await screen.findByText(DRIFT.message)).toBeTruthy();
    expect(within(row('(415) 555-0101')).getByText('Drifted')).toBeTruthy();
    // The list's copy of the channel is updated too, so the Dashboard reads the same.
    expect(queryClient.getQueryData<Channel[]>(settingsKeys.channels)?.[0]?.health.status).toBe('DRIFTED');
  });

  it("a check that fails says why in the server's words", async () => {
    server([channel('HEALTHY')], { refresh: () => fail(429, 'Too many checks: try again in a minute.', 'RATE_LIMITED') });
    const events = userEvent.setup();
    renderWithProviders(<ChannelsPage />);
    await events.click(await screen.findByRole('button', { name: /^Check now/ }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many checks: try again in a minute.');
  });

  it('a number that is gone or refused cannot be repaired here: no Repair button', async () => {
    server([channel('NUMBER_GONE')], {
      health: health('NUMBER_GONE', [
        { field: 'PhoneNumber', expected: '+14155550101', actual: null, message: 'The number is gone.', repairable: false },
      ]),
    });
    renderWithProviders(<ChannelsPage />);
    expect(await screen.findByText('The number is gone.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Repair/ })).toBeNull();
  });

  it('an inactive number or an e-mail address has no health shown', async () => {
    server([
      { ...channel('DRIFTED'), status: 'INACTIVE' },
      { ...channel('HEALTHY', 'ch-2', 'help@example.com'), type: 'EMAIL' },
    ]);
    renderWithProviders(<ChannelsPage />);
    await screen.findByText('help@example.com');
    expect(screen.queryByText(/^Health: /)).toBeNull();
    expect(screen.queryByRole('button', { name: /^Check now/ })).toBeNull();
  });
});

describe('Channel health for an agent', () => {
  beforeEach(() => signInAs('AGENT'));

  it('sees the health, the sentence, Check now and the details, but no Repair', async () => {
    server([channel('DRIFTED')], { health: health('DRIFTED', [DRIFT]) });
    renderWithProviders(<ChannelsPage />);
    expect(await screen.findByText(DRIFT.message)).toBeTruthy();
    expect(within(row('(415) 555-0101')).getByText('Drifted')).toBeTruthy();
    expect(button(/^Check now/)).toBeTruthy();
    expect(button(/^Health details/)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Repair/ })).toBeNull());
  });
});
