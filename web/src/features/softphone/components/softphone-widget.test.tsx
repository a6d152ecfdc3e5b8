import type { CallerId } from '@shared/contract/voice';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { type CallPlacer, usePlaceCall } from '@/lib/place-call';
import { phoneReports, push } from '@/test-realtime';
import { endpoints, fail, ok, renderWithProviders, signInAs, stubServer, urlOf } from '@/test-utils';
import { voiceTokens } from '../api/softphone-api';
import { RECOVER_DELAYS_MS } from '../controller/softphone-controller';
import { SoftphoneError } from '../device/device-errors';
import { createSoftphone } from '../device/softphone';
import { BACKGROUND_TICK_MS } from '../hooks/use-softphone';
import {
  type Deliver,
  type FakeSoftphoneOptions,
  FakeCall as PlainCall,
  fakeSoftphone as plainSoftphone,
} from '../testing/fake-softphone';
import { SoftphoneWidget } from './softphone-widget';

/**
 * jsdom has no WebRTC, so these tests drive the widget with a stand-in for the device wrapper
 * (testing/fake-softphone.ts); test/e2e/softphone.test.ts runs the real SDK. Realtime events come
 * from `push` instead of a socket.
 */
vi.mock('@/lib/realtime/realtime', () => import('@/test-realtime'));
/** The shared stand-ins, delivering their events inside `act`. */
const inAct: Deliver = (deliver) => {
  act(deliver);
};
class FakeCall extends PlainCall {
  override deliver = inAct;
}
const fakeSoftphone = (options: FakeSoftphoneOptions = {}) => plainSoftphone({ ...options, deliver: inAct });

const CALLER_IDS: CallerId[] = [
  { phoneNumber: '+14155550101', inboxName: 'Support', channelId: 'ch1' },
  { phoneNumber: '+14155550103', inboxName: 'Sales', channelId: 'ch2' },
];

function serve(callerIds: CallerId[] | 'fail' = CALLER_IDS) {
  return stubServer((request) => {
    if (request.url.endsWith('/voice/caller-ids')) {
      return callerIds === 'fail' ? fail(500, 'Boom', 'INTERNAL') : ok({ callerIds });
    }
    if (request.url.endsWith('/voice/token')) return fail(404, 'No provider is connected', 'PROVIDER_NOT_FOUND');
    return fail(404, 'Not found', 'NOT_FOUND');
  });
}

async function ready(phone = fakeSoftphone()) {
  renderWithProviders(<SoftphoneWidget createSoftphone={() => phone} />);
  await screen.findByRole('button', { name: 'Open dialer' });
  phone.emit('registered');
  return phone;
}

let user: ReturnType<typeof userEvent.setup>;
beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  return signInAs('AGENT');
});
afterEach(() => {
  vi.useRealTimers();
});

const banner = () => screen.getByRole('status', { name: 'Phone status' });
const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

describe('the floating call widget', () => {
  it('stays hidden, and never loads the SDK, when the token says the company has no provider', async () => {
    const requests = serve();
    const loadSdk = vi.fn();
    renderWithProviders(<SoftphoneWidget createSoftphone={() => createSoftphone({ tokens: voiceTokens, loadSdk })} />);
    await waitFor(() => expect(requests.map((r) => r.url)).toContain(urlOf(endpoints.voiceToken)));
    await advance(100);
    expect(screen.queryByRole('button', { name: 'Open dialer' })).toBeNull();
    expect(screen.queryByRole('status', { name: 'Phone status' })).toBeNull();
    expect(loadSdk).not.toHaveBeenCalled();
  });

  it('appears once a provider is connected in this tab', async () => {
    serve();
    let attempts = 0;
    const phone = fakeSoftphone({
      start: async () => {
        if (++attempts > 1) return;
        phone.emit('no_provider');
        throw new SoftphoneError('No provider configured', 'NO_PROVIDER_CONFIGURED');
      },
    });
    const { queryClient } = renderWithProviders(<SoftphoneWidget createSoftphone={() => phone} />);
    await waitFor(() => expect(attempts).toBe(1));
    expect(screen.queryByRole('button', { name: 'Open dialer' })).toBeNull();
    act(() => queryClient.setQueryData(['providers'], [{ id: 'p1', type: 'TWILIO', channelCount: 1 }]));
    await screen.findByRole('button', { name: 'Open dialer' });
    expect(attempts).toBe(2);
  });

  it('starts again when a provider is connected while the device is still asking for its token', async () => {
    serve();
    let attempts = 0;
    let answer: () => void = () => {};
    const phone = fakeSoftphone({
      start: () => {
        if (++attempts > 1) return Promise.resolve();
        // The token request was served before the provider was connected: it says there is none.
        return new Promise((_, reject) => {
          answer = () => {
            phone.emit('no_provider');
            reject(new SoftphoneError('No provider configured', 'NO_PROVIDER_CONFIGURED'));
          };
        });
      },
    });
    const { queryClient } = renderWithProviders(<SoftphoneWidget createSoftphone={() => phone} />);
    await waitFor(() => expect(attempts).toBe(1));
    // The cache tells its listeners after the current task; the widget, listening since it mounted, hears first.
    await act(
      () =>
        new Promise<void>((resolve) => {
          const off = queryClient.getQueryCache().subscribe((event) => {
            if (event.type === 'updated') resolve(off());
          });
          queryClient.setQueryData(['providers'], [{ id: 'p1', type: 'TWILIO', channelCount: 1 }]);
        }),
    );
    await act(async () => answer());
    await screen.findByRole('button', { name: 'Open dialer' });
    expect(attempts).toBe(2);
  });

  it('shows the device initializing, then ready, and hides the ready banner after 3 seconds', async () => {
    serve();
    const phone = fakeSoftphone();
    renderWithProviders(<SoftphoneWidget createSoftphone={() => phone} />);
    await screen.findByRole('button', { name: 'Open dialer' });
    expect(banner().textContent).toContain('Connecting to the phone service...');
    phone.emit('registered');
    expect(banner().textContent).toContain('Ready to make and take calls');
    await advance(2_999);
    expect(banner().textContent).toContain('Ready');
    await advance(1);
    expect(banner().textContent).toBe('');
  });

  it('says Device disconnected when the device unregisters, and re-registers back in the foreground', async () => {
    serve();
    let fail = false;
    const reconnect = vi.fn(() => (fail ? Promise.reject(new Error('offline')) : new Promise<void>(() => {})));
    const phone = await ready(fakeSoftphone({ reconnect }));
    phone.emit('unregistered');
    expect(banner().textContent).toContain('Device disconnected');

    act(() => document.dispatchEvent(new Event('visibilitychange')));
    expect(reconnect).toHaveBeenCalledTimes(1);
    expect(banner().textContent).toContain('Reconnecting...');

    fail = true;
    act(() => document.dispatchEvent(new Event('visibilitychange')));
    await waitFor(() => expect(banner().textContent).toContain('Connection lost. Please refresh the page.'));
  });

  it('reports a device error as a connection error', async () => {
    serve();
    const phone = await ready();
    phone.emit('error', new SoftphoneError('Access token expired', 20104));
    expect(banner().textContent).toContain('Connection error: Access token expired');
  });

  it('says Calling unavailable when calling cannot start, and Refresh tries again', async () => {
    serve();
    let attempts = 0;
    const phone = fakeSoftphone({ start: () => (++attempts === 1 ? Promise.reject(new Error('500')) : Promise.resolve()) });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithProviders(<SoftphoneWidget createSoftphone={() => phone} />);
    const panel = await screen.findByRole('alert');
    expect(within(panel).getByRole('heading', { name: 'Calling unavailable' })).toBeTruthy();
    expect(panel.textContent).toContain('Failed to initialize calling. Please refresh the page.');
    await user.click(within(panel).getByRole('button', { name: 'Refresh' }));
    await screen.findByRole('button', { name: 'Open dialer' });
    expect(attempts).toBe(2);
  });

  it('puts the Calling unavailable card away with Close or Escape, and the call button brings it back', async () => {
    serve();
    const phone = fakeSoftphone({ start: () => Promise.reject(new Error('500')) });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithProviders(<SoftphoneWidget createSoftphone={() => phone} />);
    const card = await screen.findByRole('alert');
    await user.click(within(card).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('alert')).toBeNull();
    const reopen = screen.getByRole('button', { name: 'Calling unavailable' });
    expect(document.activeElement).toBe(reopen);

    await user.click(reopen);
    const again = screen.getByRole('alert');
    expect(within(again).getByRole('heading', { name: 'Calling unavailable' })).toBeTruthy();
    expect(document.activeElement).toBe(again);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Calling unavailable' }));
  });

  describe('dialer', () => {
    it('a contact’s Call opens it with the number filled in, and places the call by the same path', async () => {
      serve();
      let placer: CallPlacer | undefined;
      function ContactCall() {
        placer = usePlaceCall();
        return null;
      }
      const phone = fakeSoftphone();
      renderWithProviders(
        <>
          <SoftphoneWidget createSoftphone={() => phone} />
          <ContactCall />
        </>,
      );
      // Before calling is ready, Call says why it cannot.
      expect(placer?.unavailableReason).not.toBeNull();
      await screen.findByRole('button', { name: 'Open dialer' });
      act(() => phone.emit('registered'));
      await waitFor(() => expect(placer?.unavailableReason).toBeNull());
      act(() => placer?.openDialer('+12025550188'));
      const dialer = await screen.findByRole('dialog', { name: 'Make a call' });
      expect((within(dialer).getByLabelText('Phone number') as HTMLInputElement).value).toBe('(202) 555-0188');
      await user.selectOptions(within(dialer).getByLabelText('Caller ID'), '+14155550101');
      await user.click(within(dialer).getByRole('button', { name: 'Call' }));
      expect(phone.connects).toEqual([{ To: '+12025550188', From: '+14155550101' }]);
    });

    it('formats the number as typed, makes the call in E.164 from the chosen caller ID, and shows it', async () => {
      serve();
      const phone = await ready();
      await user.click(screen.getByRole('button', { name: 'Open dialer' }));
      const dialer = screen.getByRole('dialog', { name: 'Make a call' });
      const number = within(dialer).getByLabelText('Phone number');
      expect(document.activeElement).toBe(number);
      expect((within(dialer).getByLabelText('Country') as HTMLSelectElement).value).toBe('US');
      expect(
        within(dialer)
          .getAllByRole('option')
          .filter((o) => o.closest('select[id]')).length,
      ).toBeGreaterThan(50);
      // Names and dial codes, no flag emoji: without an emoji font (Chromium on Linux) they are empty boxes.
      const countries = [...(within(dialer).getByLabelText('Country') as HTMLSelectElement).options].map((o) => o.text);
      expect(countries.slice(1, 3)).toEqual(['United States (+1)', 'Canada (+1)']);
      expect(countries.filter((text) => /[\u{1F1E6}-\u{1F1FF}]/u.test(text))).toEqual([]);

      await user.type(number, '4155550142');
      expect((number as HTMLInputElement).value).toBe('(415) 555-0142');
      const call = within(dialer).getByRole('button', { name: 'Call' });
      expect((call as HTMLButtonElement).disabled).toBe(true);
      await within(dialer).findByText('Please select a caller ID');

      await user.selectOptions(within(dialer).getByLabelText('Caller ID'), '+14155550103');
      expect((call as HTMLButtonElement).disabled).toBe(false);
      await user.click(call);
      expect(phone.connects).toEqual([{ To: '+14155550142', From: '+14155550103' }]);

      const panel = await screen.findByRole('region', { name: 'Active Call' });
      expect(within(panel).getByText('(415) 555-0142')).toBeTruthy();
      expect(within(panel).getByText('Calling...')).toBeTruthy();
      phone.calls[0]?.emit('accept');
      expect(within(panel).getByRole('timer', { name: 'Call duration' }).textContent).toBe('0:00');
      await advance(65_000);
      expect(within(panel).getByRole('timer', { name: 'Call duration' }).textContent).toBe('1:05');
      phone.calls[0]?.emit('disconnect');
      await screen.findByRole('button', { name: 'Open dialer' });
    });

    it('formats for the chosen country and the keypad adds digits', async () => {
      serve();
      await ready();
      await user.click(screen.getByRole('button', { name: 'Open dialer' }));
      await user.selectOptions(screen.getByLabelText('Country'), 'GB');
      const pad = screen.getByRole('group', { name: 'Dial pad' });
      for (const digit of '02079460958') await user.click(within(pad).getByRole('button', { name: digit }));
      expect((screen.getByLabelText('Phone number') as HTMLInputElement).value).toBe('020 7946 0958');
    });

    it.each([
      ['GB', '12', 'Please enter a valid phone number'],
      ['GB', '0200000000', 'Invalid phone number for United Kingdom'],
    ])('with %s, %s gives "%s"', async (country, typed, message) => {
      serve();
      const phone = await ready();
      await user.click(screen.getByRole('button', { name: 'Open dialer' }));
      await user.selectOptions(screen.getByLabelText('Country'), country);
      await user.type(screen.getByLabelText('Phone number'), typed);
      await user.selectOptions(await screen.findByLabelText('Caller ID'), '+14155550101');
      await user.click(screen.getByRole('button', { name: 'Call' }));
      expect(await screen.findByText(message)).toBeTruthy();
      expect(phone.connects).toEqual([]);
    });

    it('asks for a number once one was typed and removed, and disables Call without one', async () => {
      serve();
      await ready();
      await user.click(screen.getByRole('button', { name: 'Open dialer' }));
      const number = screen.getByLabelText('Phone number');
      await user.type(number, '4');
      await user.clear(number);
      await user.tab();
      expect(await screen.findByText('Please enter a phone number')).toBeTruthy();
      expect((screen.getByRole('button', { name: 'Call' }) as HTMLButtonElement).disabled).toBe(true);
    });

    it('says so when the user has no number to call from', async () => {
      serve([]);
      await ready();
      await user.click(screen.getByRole('button', { name: 'Open dialer' }));
      expect(
        await screen.findByText(
          'No phone numbers available. You must be assigned to an inbox with a phone number to make calls.',
        ),
      ).toBeTruthy();
      expect((screen.getByRole('button', { name: 'Call' }) as HTMLButtonElement).disabled).toBe(true);
    });

    it('says so when the caller IDs cannot be loaded', async () => {
      serve('fail');
      await ready();
      await user.click(screen.getByRole('button', { name: 'Open dialer' }));
      expect(await screen.findByText('Failed to load available phone numbers')).toBeTruthy();
    });

    it('takes the only caller ID without asking', async () => {
      serve(CALLER_IDS.slice(0, 1));
      const phone = await ready();
      await user.click(screen.getByRole('button', { name: 'Open dialer' }));
      await user.type(screen.getByLabelText('Phone number'), '4155550142');
      await waitFor(() => expect((screen.getByRole('button', { name: 'Call' }) as HTMLButtonElement).disabled).toBe(false));
      await user.click(screen.getByRole('button', { name: 'Call' }));
      expect(phone.connects).toEqual([{ To: '+14155550142', From: '+14155550101' }]);
    });

    it('shows the failure of a call that could not be placed', async () => {
      serve(CALLER_IDS.slice(0, 1));
      const phone = await ready();
      phone.connect = () => Promise.reject(new Error('A Call is already active'));
      vi.spyOn(console, 'error').mockImplementation(() => {});
      await user.click(screen.getByRole('button', { name: 'Open dialer' }));
      await user.type(screen.getByLabelText('Phone number'), '4155550142');
      await waitFor(() => expect((screen.getByRole('button', { name: 'Call' }) as HTMLButtonElement).disabled).toBe(false));
      await user.click(screen.getByRole('button', { name: 'Call' }));
      expect(await screen.findByText('Failed to make call. Please try again.')).toBeTruthy();
    });

    it('closes on Escape and gives focus back to the call button', async () => {
      serve();
      await ready();
      await user.click(screen.getByRole('button', { name: 'Open dialer' }));
      expect(screen.getByRole('dialog', { name: 'Make a call' })).toBeTruthy();
      await user.keyboard('{Escape}');
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open dialer' }));
    });
  });

  describe('incoming call', () => {
    it('rings with the caller, the number called and a timer; Answer makes it the active call with mute, hold, keypad and end', async () => {
      serve();
      const phone = await ready();
      const call = new FakeCall('INCOMING', '+14155550123', '+14155550101', 'CA1');
      phone.emit('incoming', call);
      const ringing = screen.getByRole('region', { name: 'Incoming Call' });
      expect(ringing.textContent).toContain('(415) 555-0123');
      expect(ringing.textContent).toContain('to (415) 555-0101');
      expect(within(ringing).getByRole('timer', { name: 'Ringing for' }).textContent).toBe('0:00');
      await advance(7_000);
      expect(within(ringing).getByRole('timer', { name: 'Ringing for' }).textContent).toBe('0:07');

      await user.click(within(ringing).getByRole('button', { name: 'Answer' }));
      expect(call.actions).toEqual(['accept']);
      call.emit('accept');
      const active = screen.getByRole('region', { name: 'Active Call' });
      expect(active.textContent).toContain('(415) 555-0123');
      expect(within(active).getByRole('timer', { name: 'Call duration' }).textContent).toBe('0:00');

      await user.click(within(active).getByRole('button', { name: 'Mute' }));
      expect(call.mutes).toEqual([true]);
      await user.click(within(active).getByRole('button', { name: 'Unmute' }));
      expect(call.mutes).toEqual([true, false]);
      // Hold holds the customer (active-call-panel.test.tsx): ready once the call is answered.
      expect((within(active).getByRole('button', { name: 'Hold' }) as HTMLButtonElement).disabled).toBe(false);

      await user.click(within(active).getByRole('button', { name: 'Keypad' }));
      const pad = within(active).getByRole('group', { name: 'Keypad' });
      expect(pad.textContent).toContain('ABC');
      expect(pad.textContent).toContain('WXYZ');
      await user.click(within(pad).getByRole('button', { name: '1' }));
      await user.click(within(pad).getByRole('button', { name: '#' }));
      expect(call.digits).toEqual(['1', '#']);

      await user.click(within(active).getByRole('button', { name: 'End' }));
      expect(call.actions).toEqual(['accept', 'disconnect']);
      expect(screen.queryByRole('region', { name: 'Active Call' })).toBeNull();
      expect(screen.getByRole('button', { name: 'Open dialer' })).toBeTruthy();
    });

    it('announces the call, and Alt+Shift+A takes the keyboard to Answer; focus follows to the call and back to the call button', async () => {
      serve();
      const phone = await ready();
      const announcer = screen.getAllByRole('status').find((s) => s.getAttribute('aria-live') === 'assertive');
      expect(announcer?.textContent).toBe('');
      const call = new FakeCall('INCOMING', '+14155550123', '+14155550101', 'CA1');
      phone.emit('incoming', call);
      expect(announcer?.textContent).toBe('Incoming call from (415) 555-0123');

      const answer = screen.getByRole('button', { name: 'Answer' });
      expect(answer.getAttribute('aria-keyshortcuts')).toBe('Alt+Shift+A');
      expect(screen.getByRole('region', { name: 'Incoming Call' }).textContent).toContain('Alt+Shift+A, then Enter, answers');
      await user.keyboard('{Alt>}{Shift>}A{/Shift}{/Alt}');
      expect(document.activeElement).toBe(answer);
      await user.keyboard('{Enter}');
      expect(call.actions).toEqual(['accept']);
      call.emit('accept');
      expect(document.activeElement).toBe(screen.getByRole('region', { name: 'Active Call' }));
      expect(announcer?.textContent).toBe('');

      // Mute, Hold, Keypad, End.
      await user.tab();
      await user.tab();
      await user.tab();
      await user.tab();
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'End' }));
      await user.keyboard('{Enter}');
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open dialer' }));
    });

    it('leaves focus where it is on the page when a call rings', async () => {
      serve();
      const phone = await ready();
      await user.click(screen.getByRole('button', { name: 'Open dialer' }));
      await user.keyboard('{Escape}');
      const outside = document.createElement('input');
      document.body.append(outside);
      outside.focus();
      phone.emit('incoming', new FakeCall('INCOMING', '+14155550123', null, 'CA1'));
      expect(document.activeElement).toBe(outside);
      outside.remove();
    });

    it('shows Unknown for a caller without a number, and In Call for an active call without one', async () => {
      serve();
      const phone = await ready();
      const call = new FakeCall('INCOMING', null, null, 'CA1');
      phone.emit('incoming', call);
      const ringing = screen.getByRole('region', { name: 'Incoming Call' });
      expect(ringing.textContent).toContain('Unknown');
      expect(ringing.textContent).not.toContain('to ');
      await user.click(within(ringing).getByRole('button', { name: 'Answer' }));
      call.emit('accept');
      expect(screen.getByRole('region', { name: 'Active Call' }).textContent).toContain('In Call');
    });

    it('Reject declines the call; a caller who gives up closes the panel', async () => {
      serve();
      const phone = await ready();
      const first = new FakeCall('INCOMING', '+14155550123', null, 'CA1');
      phone.emit('incoming', first);
      await user.click(screen.getByRole('button', { name: 'Reject' }));
      expect(first.actions).toEqual(['reject']);
      expect(screen.queryByRole('region', { name: 'Incoming Call' })).toBeNull();

      const second = new FakeCall('INCOMING', '+14155550123', null, 'CA2');
      phone.emit('incoming', second);
      expect(screen.getByRole('region', { name: 'Incoming Call' })).toBeTruthy();
      second.emit('cancel');
      expect(screen.queryByRole('region', { name: 'Incoming Call' })).toBeNull();
    });

    it('ignores a second invite while one call is under way (Device busy)', async () => {
      serve();
      const phone = await ready();
      vi.spyOn(console, 'info').mockImplementation(() => {});
      phone.emit('incoming', new FakeCall('INCOMING', '+14155550123', null, 'CA1'));
      const second = new FakeCall('INCOMING', '+14155550199', null, 'CA2');
      phone.emit('incoming', second);
      expect(second.actions).toEqual(['ignore']);
      expect(console.info).toHaveBeenCalledWith('Device busy');
      expect(screen.getByRole('region', { name: 'Incoming Call' }).textContent).toContain('(415) 555-0123');
    });

    it('without the microphone, answering fails with the permission-denied message', async () => {
      serve();
      const phone = await ready();
      const call = new FakeCall('INCOMING', '+14155550123', null, 'CA1');
      phone.emit('incoming', call);
      await user.click(screen.getByRole('button', { name: 'Answer' }));
      // The SDK ends the call first, then reports why.
      call.emit('disconnect');
      call.emit(
        'error',
        new SoftphoneError('Microphone permission denied. Allow microphone access for this site and try again.', 31401),
      );
      expect(screen.getByRole('alert').textContent).toContain('Microphone permission denied');
      expect(screen.queryByRole('region', { name: 'Incoming Call' })).toBeNull();
      await user.click(screen.getByRole('button', { name: 'Dismiss' }));
      expect(screen.queryByRole('alert')).toBeNull();
    });
  });

  describe('how a call ended', () => {
    const lastCall = () => screen.getByRole('status', { name: 'Last call' });

    async function dialOut(phone: ReturnType<typeof fakeSoftphone>) {
      await user.click(screen.getByRole('button', { name: 'Open dialer' }));
      await user.type(screen.getByLabelText('Phone number'), '4155550142');
      await user.selectOptions(await screen.findByLabelText('Caller ID'), '+14155550101');
      await user.click(screen.getByRole('button', { name: 'Call' }));
      await screen.findByRole('region', { name: 'Active Call' });
      const call = phone.calls.at(-1);
      if (!call) throw new Error('no call placed');
      return call;
    }

    it('a call given up while ringing closes, says why for a few seconds, and the next call goes out', async () => {
      serve();
      const phone = await ready();
      expect(lastCall().textContent).toBe('');
      const first = await dialOut(phone);
      first.sid = 'CA9';
      first.emit('ringing');
      // Twilio hangs up (the SDK does not say why), then the call's status arrives.
      first.emit('disconnect');
      expect(screen.queryByRole('region', { name: 'Active Call' })).toBeNull();
      expect(lastCall().textContent).toBe('Call ended');
      push('call_ended', { callSid: 'CA9', callStatus: 'NO_ANSWER' });
      expect(lastCall().textContent).toBe('No answer');
      await advance(6_000);
      expect(lastCall().textContent).toBe('');

      const second = await dialOut(phone);
      second.emit('accept');
      expect(screen.getByRole('timer', { name: 'Call duration' })).toBeTruthy();
      expect(phone.connects).toHaveLength(2);
    });

    it('the status told first ends a call whose signalling never ends it; the call is let go', async () => {
      serve();
      const phone = await ready();
      const call = await dialOut(phone);
      push('call_ended', { callSid: 'CA9', callStatus: 'BUSY' });
      expect(screen.getByRole('region', { name: 'Active Call' })).toBeTruthy();
      call.sid = 'CA9';
      call.emit('ringing');
      expect(screen.queryByRole('region', { name: 'Active Call' })).toBeNull();
      expect(lastCall().textContent).toBe('Busy');
      expect(call.actions).toEqual(['disconnect']);
    });

    describe('a call the server refused (docs/product.md §2.9 Outcome)', () => {
      const REASON = 'Calls to premium-rate numbers are not allowed.';

      it('says Call failed and why, the reason staying until dismissed, when the refusal is told first', async () => {
        serve();
        const phone = await ready();
        const call = await dialOut(phone);
        // The webhook tells the refusal while it answers Twilio: before the SDK knows the CallSid.
        push('call_ended', { callSid: 'CA7', callStatus: 'FAILED', failureReason: REASON });
        call.sid = 'CA7';
        // Twilio answers with its spoken apology: to the SDK, the call connects.
        call.emit('accept');
        expect(screen.queryByRole('region', { name: 'Active Call' })).toBeNull();
        expect(lastCall().textContent).toBe('Call failed');
        expect(screen.getByRole('alert').textContent).toContain(REASON);
        expect(call.actions).toEqual(['disconnect']);
        await advance(6_000);
        expect(lastCall().textContent).toBe('');
        expect(screen.getByRole('alert').textContent).toContain(REASON);
        await user.click(screen.getByRole('button', { name: 'Dismiss' }));
        expect(screen.queryByRole('alert')).toBeNull();
      });

      it('says why when the refusal arrives after the SDK ended the call', async () => {
        serve();
        const phone = await ready();
        const call = await dialOut(phone);
        call.sid = 'CA8';
        call.emit('accept');
        call.emit('disconnect');
        expect(lastCall().textContent).toBe('Call ended');
        push('call_ended', { callSid: 'CA8', callStatus: 'FAILED', failureReason: REASON });
        expect(lastCall().textContent).toBe('Call failed');
        expect(screen.getByRole('alert').textContent).toContain(REASON);
      });
    });

    it('takes the reason Twilio hangs up with (busy) as the outcome, not as an error', async () => {
      serve();
      const phone = await ready();
      const call = await dialOut(phone);
      call.emit('error', new SoftphoneError('Busy', 31486));
      call.emit('disconnect');
      expect(lastCall().textContent).toBe('Busy');
      expect(screen.queryByRole('alert')).toBeNull();
      await screen.findByRole('button', { name: 'Open dialer' });
    });

    it('says Call ended when the other side hangs up a call in progress, and nothing when the agent ends it', async () => {
      serve();
      const phone = await ready();
      const call = await dialOut(phone);
      call.sid = 'CA9';
      call.emit('ringing');
      call.emit('accept');
      call.emit('disconnect');
      expect(lastCall().textContent).toBe('Call ended');

      const mine = await dialOut(phone);
      expect(lastCall().textContent).toBe('');
      await user.click(screen.getByRole('button', { name: 'End' }));
      mine.emit('disconnect');
      expect(lastCall().textContent).toBe('');
    });
  });

  describe('too many calling tokens', () => {
    it("shows the server's reason and when calling tries again, then tries again by itself at that time", async () => {
      serve();
      let attempts = 0;
      const phone = fakeSoftphone({
        start: async () => {
          if (++attempts > 1) return;
          throw new ApiError('Too many calling tokens requested. Try again in 2 minutes.', 429, 'TOO_MANY_REQUESTS', {
            retryAfterSeconds: 100,
          });
        },
      });
      vi.spyOn(console, 'error').mockImplementation(() => {});
      renderWithProviders(<SoftphoneWidget createSoftphone={() => phone} />);
      const panel = await screen.findByRole('alert');
      expect(within(panel).getByRole('heading', { name: 'Calling unavailable' })).toBeTruthy();
      expect(panel.textContent).toContain('Too many calling tokens requested. Try again in 2 minutes.');
      expect(panel.textContent).toMatch(/Calling will try again by itself at \d{1,2}:\d{2}/);
      expect(panel.textContent).not.toContain('Failed to initialize calling');
      await advance(100_000);
      expect(attempts).toBe(1);
      await advance(1_000);
      await screen.findByRole('button', { name: 'Open dialer' });
      expect(attempts).toBe(2);
    });
  });

  describe('the provider changes', () => {
    it('a reconnected provider starts the device again on a new token, and the banner says so', async () => {
      serve();
      const starts = vi.fn(() => Promise.resolve());
      const forgetIssuedBefore = vi.fn();
      const phone = fakeSoftphone({ start: starts });
      renderWithProviders(<SoftphoneWidget createSoftphone={() => phone} tokens={{ forgetIssuedBefore }} />);
      await screen.findByRole('button', { name: 'Open dialer' });
      phone.emit('registered');
      const changedAt = '2030-01-01T10:00:00.000Z';
      push('provider_changed', { providerId: 'p2', connected: true, changedAt });
      expect(forgetIssuedBefore).toHaveBeenCalledWith(Date.parse(changedAt));
      expect(banner().textContent).toContain('Calling settings changed. Reconnecting...');
      await waitFor(() => expect(starts).toHaveBeenCalledTimes(2));
      expect(screen.getByRole('button', { name: 'Open dialer' })).toBeTruthy();
      phone.emit('registered');
      expect(banner().textContent).toContain('Ready to make and take calls');
    });

    it('a disconnected provider hides calling, after the call under way', async () => {
      serve();
      const phone = await ready();
      const call = new FakeCall('INCOMING', '+14155550123', null, 'CA1');
      phone.emit('incoming', call);
      await user.click(screen.getByRole('button', { name: 'Answer' }));
      call.emit('accept');
      push('provider_changed', { providerId: 'p1', connected: false, changedAt: new Date().toISOString() });
      expect(screen.getByRole('region', { name: 'Active Call' })).toBeTruthy();
      await user.click(screen.getByRole('button', { name: 'End' }));
      await waitFor(() => expect(screen.queryByRole('button', { name: 'Open dialer' })).toBeNull());
      expect(screen.queryByRole('status', { name: 'Phone status' })).toBeNull();
    });
  });

  describe("calls placed from other screens (lib/place-call: Call History's Call back)", () => {
    /** What another screen's call button does with the published dial path. */
    function CallBackButton() {
      const placer = usePlaceCall();
      return (
        <>
          <button
            type="button"
            disabled={placer.unavailableReason !== null}
            onClick={() => void placer.dial('+14155550199', '+14155550101')}
          >
            Call back
          </button>
          <p>{placer.unavailableReason ?? 'can call'}</p>
        </>
      );
    }

    it('is unavailable with a reason until the phone is ready, dials through the softphone, and not during a call', async () => {
      serve();
      const phone = fakeSoftphone();
      renderWithProviders(
        <>
          <SoftphoneWidget createSoftphone={() => phone} />
          <CallBackButton />
        </>,
      );
      expect((screen.getByRole('button', { name: 'Call back' }) as HTMLButtonElement).disabled).toBe(true);
      expect(screen.getByText('Calling is starting…')).toBeTruthy();
      await screen.findByRole('button', { name: 'Open dialer' });
      phone.emit('registered');
      await waitFor(() => expect((screen.getByRole('button', { name: 'Call back' }) as HTMLButtonElement).disabled).toBe(false));
      await user.click(screen.getByRole('button', { name: 'Call back' }));
      await waitFor(() => expect(phone.connects).toEqual([{ To: '+14155550199', From: '+14155550101' }]));
      expect(await screen.findByRole('region', { name: 'Active Call' })).toBeTruthy();
      expect(screen.getByText('You are already on a call.')).toBeTruthy();
      expect((screen.getByRole('button', { name: 'Call back' }) as HTMLButtonElement).disabled).toBe(true);
    });

    it('opens the dialer with the number when the call was on a number the member may not call from', async () => {
      // Sales only: the call back is from Support's number.
      serve(CALLER_IDS.slice(1));
      const phone = fakeSoftphone();
      renderWithProviders(
        <>
          <SoftphoneWidget createSoftphone={() => phone} />
          <CallBackButton />
        </>,
      );
      await screen.findByRole('button', { name: 'Open dialer' });
      phone.emit('registered');
      await waitFor(() => expect((screen.getByRole('button', { name: 'Call back' }) as HTMLButtonElement).disabled).toBe(false));
      await user.click(screen.getByRole('button', { name: 'Call back' }));
      const dialer = await screen.findByRole('dialog', { name: 'Make a call' });
      expect((within(dialer).getByLabelText('Phone number') as HTMLInputElement).value).toBe('(415) 555-0199');
      expect(phone.connects).toEqual([]);
    });
  });
});

describe('never missing a ring (docs/product.md §10.5)', () => {
  /**
   * A browser that blocks sound until the person clicks: jsdom has no AudioContext, so a stand-in
   * acts as Chromium's does before a gesture (suspended; `resume` from a click starts it).
   */
  class BlockedAudioContext extends EventTarget {
    state: AudioContextState = 'suspended';
    resume() {
      this.state = 'running';
      this.dispatchEvent(new Event('statechange'));
      return Promise.resolve();
    }
  }

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('asks for a click while the browser blocks sound, and stops asking once it is allowed', async () => {
    vi.stubGlobal('AudioContext', BlockedAudioContext);
    serve();
    await ready();
    const ask = screen.getByRole('button', { name: 'Click to enable sound for incoming calls' });
    await user.click(ask);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Click to enable sound for incoming calls' })).toBeNull());
  });

  it('says nothing of sound where the browser allows it', async () => {
    vi.stubGlobal(
      'AudioContext',
      class extends BlockedAudioContext {
        override state: AudioContextState = 'running';
      },
    );
    serve();
    await ready();
    expect(screen.queryByRole('button', { name: 'Click to enable sound for incoming calls' })).toBeNull();
  });

  it('tells the server whether its phone is registered, on every change', async () => {
    serve();
    const phone = await ready();
    expect(phoneReports.at(-1)).toBe(true);
    phone.emit('unregistered');
    expect(phoneReports.at(-1)).toBe(false);
  });

  it('shows a lapsed registration and takes it up again by itself, without a reload or coming to the front', async () => {
    serve();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let attempts = 0;
    const reconnect = vi.fn(async () => {
      // The first attempt finds the service still away; the second registers.
      if (++attempts === 1) throw new Error('offline');
      phone.emit('registered');
    });
    const phone = fakeSoftphone({ reconnect });
    await ready(phone);
    phone.emit('unregistered');
    expect(banner().textContent).toContain('Device disconnected');
    expect(phoneReports.at(-1)).toBe(false);

    await advance(RECOVER_DELAYS_MS[0]);
    expect(reconnect).toHaveBeenCalledTimes(1);
    expect(banner().textContent).toContain('Device disconnected');
    await advance(RECOVER_DELAYS_MS[1]);
    expect(reconnect).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(banner().textContent).toContain('Ready to make and take calls'));
    expect(phoneReports.at(-1)).toBe(true);
    // Registered again: no more attempts.
    await advance(RECOVER_DELAYS_MS[4]);
    expect(reconnect).toHaveBeenCalledTimes(2);
  });

  it('in a hidden tab, renews its token on each tick so the registration cannot lapse with it', async () => {
    serve();
    const keepRegistered = vi.fn();
    await ready(fakeSoftphone({ keepRegistered }));
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    act(() => document.dispatchEvent(new Event('visibilitychange')));
    expect(keepRegistered).toHaveBeenCalledTimes(1);
    await advance(BACKGROUND_TICK_MS);
    expect(keepRegistered).toHaveBeenCalledTimes(2);
    visibility.mockReturnValue('visible');
    act(() => document.dispatchEvent(new Event('visibilitychange')));
    await advance(BACKGROUND_TICK_MS * 4);
    expect(keepRegistered).toHaveBeenCalledTimes(2);
  });
});
