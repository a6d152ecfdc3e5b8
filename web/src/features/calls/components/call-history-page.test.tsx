import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Call } from '../../../../../shared/contract/calls';
import { deferred, fail, ok, renderWithProviders, signInAs, stubServer } from '../../../test-utils';
import { dayBoundary } from '../api/calls-api';
import { CallHistoryPage, formatDuration } from './call-history-page';

const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
const CALL: Call = {
  id: 'call-1',
  direction: 'INBOUND',
  callStatus: 'COMPLETED',
  contact: { id: 'k-1', name: 'Ada Lovelace', phoneNumber: '+14155550101' },
  channel: { id: 'ch-1', phoneNumber: '+12025550100' },
  durationSeconds: 125,
  createdAt: at(90),
  recordingUrl: null,
  providerCallId: 'CA1',
  answeredBy: null,
};
const NEWER: Call = {
  ...CALL,
  id: 'call-2',
  direction: 'OUTBOUND',
  callStatus: 'NO_ANSWER',
  contact: { id: null, name: '', phoneNumber: '+442079460958' },
  durationSeconds: 0,
  createdAt: at(5),
};

const page = (path = '/calls') => renderWithProviders(<CallHistoryPage />, { path, route: '/calls' });
const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

beforeEach(() => signInAs('AGENT'));

describe('CallHistoryPage', () => {
  it('lists calls newest first: direction, contact or number, channel, status, m:ss, when', async () => {
    stubServer(() => ok({ calls: [CALL, NEWER] }));
    page();
    const rows = within(await screen.findByRole('list', { name: 'Calls' })).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    const [first, second] = rows as [HTMLElement, HTMLElement];
    expect(first.textContent).toContain('Outbound call');
    expect(first.textContent).toContain('+44 20 7946 0958');
    expect(first.textContent).toContain('from (202) 555-0100');
    expect(within(first).getByText('No answer')).toBeTruthy();
    expect(first.textContent).toContain('0:00');
    expect(first.textContent).toContain('5m ago');
    expect(second.textContent).toContain('Inbound call');
    expect(within(second).getByText('Ada Lovelace')).toBeTruthy();
    expect(within(second).getByText('Completed')).toBeTruthy();
    expect(second.textContent).toContain('2:05');
    expect(second.textContent).toContain('1h ago');
  });

  it('reads the filters from the address and sends them with the limit of 100', async () => {
    const requests = stubServer(() => ok({ calls: [] }));
    page('/calls?status=BUSY&from=2026-03-01&to=2026-03-31');
    expect(await screen.findByText('No calls match these filters')).toBeTruthy();
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('BUSY');
    expect((screen.getByLabelText('From date') as HTMLInputElement).value).toBe('2026-03-01');
    expect(queryOf(requests[0]?.url ?? '')).toEqual({
      status: 'BUSY',
      dateFrom: dayBoundary('2026-03-01', false),
      dateTo: dayBoundary('2026-03-31', true),
      limit: '100',
    });
  });

  it('changes and clears filters, refetching each time', async () => {
    const requests = stubServer(() => ok({ calls: [] }));
    const events = userEvent.setup();
    page();
    expect(await screen.findByText('No calls yet')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Clear Filters' }).hasAttribute('disabled')).toBe(true);
    await events.selectOptions(screen.getByLabelText('Status'), 'FAILED');
    await waitFor(() => expect(queryOf(requests.at(-1)?.url ?? '').status).toBe('FAILED'));
    await events.click(screen.getByRole('button', { name: 'Clear Filters' }));
    await waitFor(() => expect(queryOf(requests.at(-1)?.url ?? '').status).toBe(''));
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('');
  });

  it('keeps both dates typed before the page renders again', async () => {
    const requests = stubServer(() => ok({ calls: [] }));
    page();
    expect(await screen.findByText('No calls yet')).toBeTruthy();
    // One act: the second change comes before the router has rendered the first.
    act(() => {
      fireEvent.change(screen.getByLabelText('From date'), { target: { value: '2026-01-01' } });
      fireEvent.change(screen.getByLabelText('To date'), { target: { value: '2026-01-31' } });
    });
    await waitFor(() =>
      expect(queryOf(requests.at(-1)?.url ?? '')).toMatchObject({
        dateFrom: dayBoundary('2026-01-01', false),
        dateTo: dayBoundary('2026-01-31', true),
      }),
    );
    expect((screen.getByLabelText('From date') as HTMLInputElement).value).toBe('2026-01-01');
    expect((screen.getByLabelText('To date') as HTMLInputElement).value).toBe('2026-01-31');
  });

  it('says when From is after To, limits each date by the other, and asks nothing', async () => {
    const requests = stubServer(() => ok({ calls: [] }));
    page('/calls?from=2026-02-10&to=2026-02-01');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('From date must be on or before To date');
    const from = screen.getByLabelText('From date') as HTMLInputElement;
    expect(from.max).toBe('2026-02-01');
    expect((screen.getByLabelText('To date') as HTMLInputElement).min).toBe('2026-02-10');
    expect(from.getAttribute('aria-invalid')).toBe('true');
    expect(from.getAttribute('aria-describedby')).toBe(alert.id);
    expect(requests).toHaveLength(0);
    fireEvent.change(from, { target: { value: '2026-01-25' } });
    expect(await screen.findByText('No calls match these filters')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows loading, then the error', async () => {
    const answer = deferred();
    stubServer(() => answer.promise);
    page();
    expect(screen.getByRole('status').textContent).toContain('Loading calls...');
    answer.release(fail(500, 'Something went wrong on our side. Please try again.', 'INTERNAL_ERROR'));
    expect((await screen.findByRole('alert')).textContent).toBe('Something went wrong on our side. Please try again.');
  });

  it('formats durations as m:ss', () => {
    expect([0, 9, 60, 125, 3_601].map(formatDuration)).toEqual(['0:00', '0:09', '1:00', '2:05', '60:01']);
  });
});
