import type { Call } from '@shared/contract/calls';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { usePublishCallPlacer } from '@/lib/place-call';
import {
  bytes,
  deferred,
  endpoints,
  fail,
  ok,
  renderWithProviders,
  signInAs,
  stubObjectUrls,
  stubServer,
  urlOf,
} from '@/test-utils';
import { dayBoundary } from '../api/calls-api';
import { CallHistoryPage } from './call-history-page';

const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
const CALL: Call = {
  id: 'call-1',
  direction: 'INBOUND',
  callStatus: 'COMPLETED',
  voicemail: null,
  contact: { id: 'k-1', name: 'Ada Lovelace', phoneNumber: '+14155550101' },
  channel: { id: 'ch-1', phoneNumber: '+12025550100' },
  durationSeconds: 125,
  createdAt: at(90),
  recordingUrl: null,
  legs: [],
  held: false,
  holdSeconds: 0,
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

const VOICEMAIL: Call = {
  ...CALL,
  id: 'call-3',
  callStatus: 'NO_ANSWER',
  contact: { id: null, name: '', phoneNumber: '+14155550191' },
  durationSeconds: 0,
  createdAt: at(2),
  voicemail: { durationSeconds: 42, url: urlOf(endpoints.voicemailAudio, { id: 'call-3' }), createdAt: at(1), listened: false },
};

const page = (path = '/calls') => renderWithProviders(<CallHistoryPage />, { path, route: '/calls' });
const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

beforeEach(() => signInAs('AGENT'));

describe('CallHistoryPage', () => {
  it('lists calls newest first: direction, contact or number, channel, status, m:ss (none for a call not connected), when', async () => {
    stubServer(() => ok({ calls: [CALL, NEWER] }));
    page();
    const rows = within(await screen.findByRole('list', { name: 'Calls' })).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    const [first, second] = rows as [HTMLElement, HTMLElement];
    expect(first.textContent).toContain('Outbound call');
    expect(first.textContent).toContain('+44 20 7946 0958');
    expect(first.textContent).toContain('from (202) 555-0100');
    expect(within(first).getByText('No answer')).toBeTruthy();
    expect(first.textContent).not.toContain('0:00');
    expect(within(first).getByText('Not connected')).toBeTruthy();
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

  it('shows a voicemail as New with Play voicemail, reading the recording only when asked, then plays it in the native player', async () => {
    const urls = stubObjectUrls();
    let listened = false;
    const requests = stubServer((r) => {
      if (r.url === urlOf(endpoints.voicemailAudio, { id: 'call-3' })) {
        listened = true;
        return bytes('audio/wav', [0x52, 0x49, 0x46, 0x46]);
      }
      return ok({ calls: [{ ...VOICEMAIL, voicemail: { ...VOICEMAIL.voicemail, listened } }, CALL] });
    });
    const user = userEvent.setup();
    page();
    const [row] = within(await screen.findByRole('list', { name: 'Calls' })).getAllByRole('listitem') as [HTMLElement];
    expect(within(row).getByText('New')).toBeTruthy();
    // Reading the recording marks it listened on the server: not merely because the list was shown.
    expect(requests.filter((r) => r.url.endsWith('/voicemail'))).toHaveLength(0);
    const play = within(row).getByRole('button', { name: 'Play voicemail: Voicemail from (415) 555-0191, 0:42' });
    play.focus();
    await user.keyboard('{Enter}');
    const audio = (await within(row).findByLabelText('Voicemail from (415) 555-0191, 0:42')) as HTMLAudioElement;
    expect(audio.tagName).toBe('AUDIO');
    expect(audio.controls).toBe(true);
    expect(audio.getAttribute('src')).toBe('blob:test/1');
    expect(urls.made[0]?.type).toBe('audio/wav');
    expect(document.activeElement).toBe(audio);
    // Listened now: the list is read again and the mark goes.
    await waitFor(() => expect(within(row).queryByText('New')).toBeNull());
    expect(requests.filter((r) => r.url.endsWith('/voicemail'))).toHaveLength(1);
    // The other call has no voicemail.
    expect(screen.queryAllByRole('button', { name: /Play voicemail/ })).toHaveLength(0);
  });

  it('plays a recorded call’s recording when asked, and says when one is under way or could not be made', async () => {
    const urls = stubObjectUrls();
    const url = urlOf(endpoints.callRecordingAudio, { callId: 'CA1' });
    const requests = stubServer((r) => {
      if (r.url === url) return bytes('audio/mpeg', [0x49, 0x44, 0x33]);
      return ok({
        calls: [
          { ...NEWER, providerCallId: 'CA2', recording: { status: 'RECORDING', paused: false, durationSeconds: 0, url: null } },
          { ...CALL, recording: { status: 'COMPLETED', paused: false, durationSeconds: 125, url } },
          { ...VOICEMAIL, providerCallId: 'CA3', recording: { status: 'FAILED', paused: false, durationSeconds: 0, url: null } },
        ],
      });
    });
    const user = userEvent.setup();
    page();
    await screen.findByRole('list', { name: 'Calls' });
    expect(screen.getByText('· in progress')).toBeTruthy();
    expect(screen.getByText('· not available')).toBeTruthy();
    const recorded = screen.getByRole('button', { name: /^Play recording: / }).closest('li') as HTMLElement;
    expect(screen.getAllByRole('button', { name: /Play recording/ })).toHaveLength(1);
    // Read only when asked.
    expect(requests.filter((r) => r.url === url)).toHaveLength(0);
    await user.click(within(recorded).getByRole('button', { name: /^Play recording: Recording of the call with/ }));
    const audio = (await within(recorded).findByLabelText(/^Recording of the call with .*, 2:05$/)) as HTMLAudioElement;
    expect(audio.tagName).toBe('AUDIO');
    expect(urls.made[0]?.type).toBe('audio/mpeg');
    expect(document.activeElement).toBe(audio);
    expect(requests.filter((r) => r.url === url)).toHaveLength(1);
  });

  it('says when the voicemail cannot be read, and Play reads it again', async () => {
    stubObjectUrls();
    let refusals = 1;
    stubServer((r) => {
      if (!r.url.endsWith('/voicemail')) return ok({ calls: [VOICEMAIL] });
      return refusals-- > 0 ? fail(404, 'Voicemail not found', 'NOT_FOUND') : bytes('audio/mpeg');
    });
    const user = userEvent.setup();
    page();
    await user.click(await screen.findByRole('button', { name: /Play voicemail/ }));
    expect((await screen.findByRole('alert')).textContent).toBe('Voicemail not found');
    await user.click(screen.getByRole('button', { name: /Play voicemail/ }));
    expect((await screen.findByLabelText('Voicemail from (415) 555-0191, 0:42')).tagName).toBe('AUDIO');
  });

  it('filters by Voicemail, kept in the address and sent as voicemail=true', async () => {
    const requests = stubServer(() => ok({ calls: [] }));
    const events = userEvent.setup();
    page('/calls?voicemail=true');
    expect(await screen.findByText('No calls match these filters')).toBeTruthy();
    const voicemail = screen.getByRole('checkbox', { name: 'Voicemail' }) as HTMLInputElement;
    expect(voicemail.checked).toBe(true);
    expect(queryOf(requests[0]?.url ?? '').voicemail).toBe('true');
    await events.click(voicemail);
    await waitFor(() => expect(queryOf(requests.at(-1)?.url ?? '').voicemail).toBeUndefined());
    expect(voicemail.checked).toBe(false);
    await events.click(voicemail);
    await waitFor(() => expect(queryOf(requests.at(-1)?.url ?? '').voicemail).toBe('true'));
    await events.click(screen.getByRole('button', { name: 'Clear Filters' }));
    await waitFor(() => expect(voicemail.checked).toBe(false));
  });

  describe('who took each call, Call back and the voicemail length', () => {
    /** The softphone's side of lib/place-call, as the widget publishes it (its dialer is not used here). */
    const openDialer = () => {};
    function Softphone({ reason, dial }: { reason: string | null; dial: (to: string, from: string) => Promise<string | null> }) {
      usePublishCallPlacer(reason, dial, openDialer);
      return null;
    }
    const withSoftphone = (reason: string | null, dial = vi.fn(async () => null as string | null)) => {
      renderWithProviders(
        <>
          <Softphone reason={reason} dial={dial} />
          <CallHistoryPage />
        </>,
        { path: '/calls', route: '/calls' },
      );
      return dial;
    };
    const ANSWERED: Call = { ...CALL, answeredBy: { id: 'u-1', name: 'Grace Hopper' } };
    const PLACED: Call = { ...NEWER, answeredBy: { id: 'u-2', name: 'Alan Turing' } };

    it('says who answered or placed each call, and a missed one as not answered', async () => {
      stubServer(() => ok({ calls: [ANSWERED, PLACED, VOICEMAIL] }));
      withSoftphone(null);
      const [missed, placed, answered] = within(await screen.findByRole('list', { name: 'Calls' })).getAllByRole('listitem') as [
        HTMLElement,
        HTMLElement,
        HTMLElement,
      ];
      expect(within(answered).getByText('Answered by Grace Hopper')).toBeTruthy();
      expect(within(placed).getByText('Placed by Alan Turing')).toBeTruthy();
      expect(within(missed).getByText('Not answered')).toBeTruthy();
    });

    it('says No one was available on a call that rang nobody because no member had a phone ready', async () => {
      const UNREACHED: Call = { ...VOICEMAIL, voicemail: null, missedReason: 'No one was available' };
      stubServer(() => ok({ calls: [UNREACHED] }));
      withSoftphone(null);
      const [row] = within(await screen.findByRole('list', { name: 'Calls' })).getAllByRole('listitem') as [HTMLElement];
      expect(within(row).getByText('No one was available')).toBeTruthy();
      expect(within(row).queryByText('Not answered')).toBeNull();
      expect(within(row).getByText('No answer')).toBeTruthy();
    });

    it("shows a voicemail's length before it is played", async () => {
      stubServer(() => ok({ calls: [VOICEMAIL] }));
      withSoftphone(null);
      const [row] = within(await screen.findByRole('list', { name: 'Calls' })).getAllByRole('listitem') as [HTMLElement];
      expect(within(row).getByText('· 0:42')).toBeTruthy();
      expect(within(row).queryByLabelText(/Voicemail from/, { selector: 'audio' })).toBeNull();
    });

    it("shows a voicemail's call without a 0:00 length: the voicemail's own length is the time the caller spoke", async () => {
      stubServer(() => ok({ calls: [VOICEMAIL] }));
      withSoftphone(null);
      const [row] = within(await screen.findByRole('list', { name: 'Calls' })).getAllByRole('listitem') as [HTMLElement];
      expect(row.textContent).not.toContain('0:00');
      expect(within(row).getByText('Not connected')).toBeTruthy();
      expect(within(row).getByRole('button', { name: 'Play voicemail: Voicemail from (415) 555-0191, 0:42' })).toBeTruthy();
    });

    it('says on the row why a refused call failed', async () => {
      const REFUSED: Call = {
        ...PLACED,
        callStatus: 'FAILED',
        contact: { id: null, name: '', phoneNumber: '+19002001234' },
        failureReason: 'Calls to premium-rate numbers are not allowed.',
      };
      stubServer(() => ok({ calls: [REFUSED, ANSWERED] }));
      withSoftphone(null);
      const [refused, answered] = within(await screen.findByRole('list', { name: 'Calls' })).getAllByRole('listitem') as [
        HTMLElement,
        HTMLElement,
      ];
      expect(within(refused).getByText('Failed')).toBeTruthy();
      expect(refused.textContent).toContain('Why it failed: Calls to premium-rate numbers are not allowed.');
      expect(refused.textContent).not.toContain('0:00');
      expect(answered.textContent).not.toContain('Why it failed');
    });

    it('calls back the other party from the number the call was on, through the softphone, by keyboard too', async () => {
      stubServer(() => ok({ calls: [ANSWERED, PLACED] }));
      let release: (error: string | null) => void = () => {};
      const dial = withSoftphone(
        null,
        vi.fn(
          () =>
            new Promise<string | null>((resolve) => {
              release = resolve;
            }),
        ),
      );
      const user = userEvent.setup();
      const button = await screen.findByRole('button', { name: 'Call back Ada Lovelace' });
      button.focus();
      await user.keyboard('{Enter}');
      expect(dial).toHaveBeenCalledWith('+14155550101', '+12025550100');
      // Pending: pressed twice, it calls once.
      expect((button as HTMLButtonElement).disabled).toBe(true);
      await user.click(button);
      expect(dial).toHaveBeenCalledTimes(1);
      release('Failed to make call');
      expect((await screen.findByRole('alert')).textContent).toBe('Failed to make call');
      expect((button as HTMLButtonElement).disabled).toBe(false);
      await user.click(screen.getByRole('button', { name: 'Call back +44 20 7946 0958' }));
      expect(dial).toHaveBeenLastCalledWith('+442079460958', '+12025550100');
    });

    it('disables Call back and says why while calling is unavailable', async () => {
      stubServer(() => ok({ calls: [ANSWERED] }));
      const dial = withSoftphone('You are already on a call.');
      const button = (await screen.findByRole('button', { name: 'Call back Ada Lovelace' })) as HTMLButtonElement;
      expect(button.disabled).toBe(true);
      expect(screen.getByText('Call back is unavailable: You are already on a call.')).toBeTruthy();
      expect(document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent).toContain(
        'You are already on a call.',
      );
      expect(dial).not.toHaveBeenCalled();
    });

    it('is unavailable when the softphone is not there (no Twilio connected)', async () => {
      stubServer(() => ok({ calls: [ANSWERED] }));
      page();
      const button = (await screen.findByRole('button', { name: 'Call back Ada Lovelace' })) as HTMLButtonElement;
      expect(button.disabled).toBe(true);
      expect(screen.getByText(/Call back is unavailable: Calling is not set up/)).toBeTruthy();
    });
  });
});
