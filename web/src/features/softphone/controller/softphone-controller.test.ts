import { READY_BANNER_HIDE_MS } from '@shared/constants';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { SoftphoneError } from '../device/device-errors';
import { OUTCOME_SHOWN_MS } from '../hooks/call-outcome';
import { FakeCall, type FakeSoftphone, fakeSoftphone } from '../testing/fake-softphone';
import {
  createSoftphoneController,
  DEVICE_NOT_INITIALIZED,
  INIT_FAILED,
  MAKE_CALL_FAILED,
  RECOVER_DELAYS_MS,
  SETTINGS_CHANGED,
} from './softphone-controller';

/**
 * The widget's controller without React: the device wrapper is the shared stand-in, time is vitest's
 * fake clock, and the realtime events and the query cache are the controller's own methods.
 */

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Lets the stand-in's promises (start, connect, reconnect) answer. */
const settle = () => vi.advanceTimersByTimeAsync(0);

function controllerOf(phone: FakeSoftphone | (() => FakeSoftphone), tokens?: { forgetIssuedBefore(ms: number): void }) {
  const create = vi.fn(typeof phone === 'function' ? phone : () => phone);
  const controller = createSoftphoneController({ create, tokens });
  const heard = vi.fn();
  controller.subscribe(heard);
  return { controller, create, heard, shown: () => controller.getSnapshot() };
}

/** A controller whose device has started and registered. */
async function ready(phone = fakeSoftphone()) {
  const parts = controllerOf(phone);
  parts.controller.start();
  await settle();
  phone.emit('registered');
  return { ...parts, phone };
}

const incoming = (sid = 'CA1', from = '+14155550123') => new FakeCall('INCOMING', from, '+14155550100', sid);

describe('the softphone controller', () => {
  it('starts the device, says it connects, then that it is ready, and hides that after READY_BANNER_HIDE_MS', async () => {
    const phone = fakeSoftphone();
    const { controller, shown } = controllerOf(phone);
    expect(shown().availability).toBe('checking');
    controller.start();
    await settle();
    expect(shown().availability).toBe('available');
    expect(shown().banner?.message).toBe('Connecting to the phone service...');
    phone.emit('registered');
    expect(shown().banner).toEqual({ state: 'ready', message: 'Ready to make and take calls' });
    await vi.advanceTimersByTimeAsync(READY_BANNER_HIDE_MS - 1);
    expect(shown().banner?.state).toBe('ready');
    await vi.advanceTimersByTimeAsync(1);
    expect(shown().banner).toBeNull();
  });

  it('gives the same snapshot until something changes, and tells its listeners once per change', async () => {
    const { controller, heard, shown, phone } = await ready();
    const before = shown();
    heard.mockClear();
    controller.dismissNotice();
    controller.hangUp();
    expect(shown()).toBe(before);
    expect(heard).not.toHaveBeenCalled();

    // An invite changes the call and clears the outcome in one step: one notice.
    phone.emit('incoming', incoming());
    expect(shown()).not.toBe(before);
    expect(heard).toHaveBeenCalledTimes(1);
    expect(controller.getSnapshot()).toBe(shown());
  });

  it('an incoming call rings, Answer makes it active, and the far end hanging up shows Call ended for OUTCOME_SHOWN_MS', async () => {
    const { controller, shown, phone } = await ready();
    const call = incoming();
    phone.emit('incoming', call);
    expect(shown().callState).toMatchObject({
      status: 'ringing',
      answering: false,
      call: { callSid: 'CA1', from: '+14155550123' },
    });

    controller.answer();
    expect(call.actions).toEqual(['accept']);
    expect(shown().callState).toMatchObject({ status: 'ringing', answering: true });
    call.emit('accept');
    expect(shown().callState.status).toBe('active');

    controller.toggleMute();
    expect(shown().muted).toBe(true);
    controller.sendDigit('5');
    expect(call.mutes).toEqual([true]);
    expect(call.digits).toEqual(['5']);

    call.emit('disconnect');
    expect(shown().callState.status).toBe('idle');
    expect(shown().muted).toBe(false);
    expect(shown().outcome).toBe('Call ended');
    await vi.advanceTimersByTimeAsync(OUTCOME_SHOWN_MS - 1);
    expect(shown().outcome).toBe('Call ended');
    await vi.advanceTimersByTimeAsync(1);
    expect(shown().outcome).toBeNull();
  });

  it('ignores a second invite while a call is under way (Device busy)', async () => {
    const { shown, phone } = await ready();
    vi.spyOn(console, 'info').mockImplementation(() => {});
    const first = incoming('CA1');
    phone.emit('incoming', first);
    const second = incoming('CA2', '+14155550199');
    phone.emit('incoming', second);
    expect(second.actions).toEqual(['ignore']);
    expect(console.info).toHaveBeenCalledWith('Device busy');
    expect(shown().callState).toMatchObject({ status: 'ringing', call: { callSid: 'CA1' } });
    // The ignored call's own events are not this widget's.
    second.emit('cancel');
    expect(shown().callState.status).toBe('ringing');
  });

  it('closes the ringing panel when another agent answers, and keeps the call of the tab that answered', async () => {
    const { controller, shown, phone } = await ready();
    const taken = incoming('CA1');
    phone.emit('incoming', taken);
    controller.callAnswered('CA-other');
    expect(shown().callState.status).toBe('ringing');
    controller.callAnswered('CA1');
    expect(shown().callState.status).toBe('idle');
    expect(taken.actions).toEqual(['ignore']);
    expect(shown().outcome).toBeNull();

    const mine = incoming('CA2');
    phone.emit('incoming', mine);
    controller.answer();
    controller.callAnswered('CA2');
    expect(shown().callState).toMatchObject({ status: 'ringing', answering: true });
    mine.emit('accept');
    expect(shown().callState.status).toBe('active');
  });

  it('ends a call the realtime call_ended names, saying how it ended', async () => {
    const { controller, shown, phone } = await ready();
    const call = incoming('CA1');
    phone.emit('incoming', call);
    controller.answer();
    call.emit('accept');
    controller.callEnded('CA1', 'COMPLETED');
    expect(shown().callState.status).toBe('idle');
    expect(call.actions).toEqual(['accept', 'disconnect']);
    expect(shown().outcome).toBe('Call ended');
  });

  it('an outbound call that Twilio ends says why once its status arrives', async () => {
    const { controller, shown, phone } = await ready();
    expect(await controller.dial('+14155550142', '+14155550101')).toBeNull();
    expect(phone.connects).toEqual([{ To: '+14155550142', From: '+14155550101' }]);
    const call = phone.calls[0] as FakeCall;
    expect(shown().callState).toMatchObject({ status: 'dialing', call: { to: '+14155550142', callSid: null } });
    call.sid = 'CA9';
    call.emit('ringing');
    call.emit('disconnect');
    expect(shown().outcome).toBe('Call ended');
    await vi.advanceTimersByTimeAsync(OUTCOME_SHOWN_MS - 1_000);
    controller.callEnded('CA9', 'NO_ANSWER');
    expect(shown().outcome).toBe('No answer');
    // Shown anew for the whole time once it says why.
    await vi.advanceTimersByTimeAsync(OUTCOME_SHOWN_MS - 1);
    expect(shown().outcome).toBe('No answer');
    await vi.advanceTimersByTimeAsync(1);
    expect(shown().outcome).toBeNull();
  });

  it('a call error is a notice until dismissed; one before the call connects ends it', async () => {
    const { controller, shown, phone } = await ready();
    await controller.dial('+14155550142', '+14155550101');
    const call = phone.calls[0] as FakeCall;
    call.emit('error', new SoftphoneError('Media connection failed', 53405));
    expect(shown().notice).toBe('Media connection failed');
    expect(shown().callState.status).toBe('idle');
    controller.dismissNotice();
    expect(shown().notice).toBeNull();

    // A refused microphone ends even a connected call; it is told after the call has ended.
    const second = incoming();
    phone.emit('incoming', second);
    controller.answer();
    second.emit('disconnect');
    second.emit('error', new SoftphoneError('Microphone permission denied.', 31401));
    expect(shown().notice).toBe('Microphone permission denied.');
    expect(shown().callState.status).toBe('idle');
    // Answering the next call puts the notice away.
    phone.emit('incoming', incoming('CA3'));
    controller.answer();
    expect(shown().notice).toBeNull();
  });

  describe('dialling fails', () => {
    it('before the device has started', async () => {
      const { controller } = controllerOf(fakeSoftphone({ start: () => new Promise(() => {}) }));
      expect(await controller.dial('+14155550142', '+14155550101')).toBe(DEVICE_NOT_INITIALIZED);
      controller.start();
      await settle();
      expect(await controller.dial('+14155550142', '+14155550101')).toBe(DEVICE_NOT_INITIALIZED);
    });

    it('when the device cannot place the call', async () => {
      vi.spyOn(console, 'error').mockImplementation(() => {});
      const phone = fakeSoftphone({ connect: () => Promise.reject(new Error('A Call is already active')) });
      const { controller, shown } = await ready(phone);
      expect(await controller.dial('+14155550142', '+14155550101')).toBe(MAKE_CALL_FAILED);
      expect(shown().callState.status).toBe('idle');
    });

    it('when a call rang in while it was being placed: the placed call is let go', async () => {
      const placed = new FakeCall('OUTGOING', null, '+14155550142');
      let connected: (call: FakeCall) => void = () => {};
      const phone = fakeSoftphone({ connect: () => new Promise((resolve) => (connected = resolve)) });
      const { controller, shown } = await ready(phone);
      const dialled = controller.dial('+14155550142', '+14155550101');
      phone.emit('incoming', incoming());
      connected(placed);
      expect(await dialled).toBe(MAKE_CALL_FAILED);
      expect(placed.actions).toEqual(['disconnect']);
      expect(shown().callState.status).toBe('ringing');
    });
  });

  it('after a 429, says why and when it tries again, and tries again by itself then', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let attempts = 0;
    const phone = fakeSoftphone({
      start: async () => {
        if (++attempts > 1) return;
        throw new ApiError('Too many calling tokens requested.', 429, 'TOO_MANY_REQUESTS', { retryAfterSeconds: 100 });
      },
    });
    const { controller, shown } = controllerOf(phone);
    controller.start();
    await settle();
    expect(shown().availability).toBe('unavailable');
    expect(shown().unavailable).toEqual({ message: 'Too many calling tokens requested.', retryAt: Date.now() + 101_000 });
    await vi.advanceTimersByTimeAsync(100_999);
    expect(attempts).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempts).toBe(2);
    expect(shown().availability).toBe('available');
    expect(shown().unavailable).toBeNull();
  });

  it('any other failure to start says so without a time, and Refresh starts again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let attempts = 0;
    const { controller, shown, create } = controllerOf(
      fakeSoftphone({ start: () => (++attempts === 1 ? Promise.reject(new Error('500')) : Promise.resolve()) }),
    );
    controller.start();
    await settle();
    expect(shown().unavailable).toEqual({ message: INIT_FAILED, retryAt: null });
    await vi.advanceTimersByTimeAsync(600_000);
    expect(attempts).toBe(1);
    controller.retry();
    await settle();
    expect(create).toHaveBeenCalledTimes(2);
    expect(shown().availability).toBe('available');
  });

  it('a restart asked for during a call waits for its end, and the call is let go before the device', async () => {
    const forgetIssuedBefore = vi.fn();
    const phone = fakeSoftphone();
    const { controller, shown, create } = controllerOf(phone, { forgetIssuedBefore });
    controller.start();
    await settle();
    const call = incoming();
    phone.emit('incoming', call);
    controller.answer();
    call.emit('accept');

    const changedAt = '2030-01-01T10:00:00.000Z';
    controller.providerChanged({ connected: true, changedAt });
    expect(forgetIssuedBefore).toHaveBeenCalledWith(Date.parse(changedAt));
    expect(create).toHaveBeenCalledTimes(1);
    expect(shown().callState.status).toBe('active');

    const order: string[] = [];
    call.disconnect = () => order.push('call');
    phone.destroy = () => order.push('device');
    controller.hangUp();
    expect(order).toEqual(['call', 'device']);
    expect(create).toHaveBeenCalledTimes(2);
    expect(shown().availability).toBe('available');
    expect(shown().banner?.message).toBe(SETTINGS_CHANGED);
    phone.emit('registered');
    expect(shown().banner?.message).toBe('Ready to make and take calls');
  });

  it('a disconnected provider hides calling at once when idle', async () => {
    const { controller, shown, phone, create } = await ready();
    controller.providerChanged({ connected: false, changedAt: new Date().toISOString() });
    expect(shown().availability).toBe('no_provider');
    expect(shown().banner).toBeNull();
    expect(phone.destroyed).toBe(1);
    expect(create).toHaveBeenCalledTimes(1);
    // The device of the start that ended is heard no more.
    phone.emit('incoming', incoming());
    expect(shown().callState.status).toBe('idle');
    // Connected again in this tab: calling comes back.
    controller.providersConnected();
    await settle();
    expect(create).toHaveBeenCalledTimes(2);
    expect(shown().availability).toBe('available');
  });

  it('starts again when a provider is connected while the device is still asking for its token', async () => {
    let attempts = 0;
    let answer: () => void = () => {};
    const phone = fakeSoftphone({
      start: () => {
        if (++attempts > 1) return Promise.resolve();
        return new Promise((_, reject) => {
          answer = () => {
            phone.emit('no_provider');
            reject(new SoftphoneError('No provider configured', 'NO_PROVIDER_CONFIGURED'));
          };
        });
      },
    });
    const { controller, shown } = controllerOf(phone);
    controller.start();
    controller.providersConnected();
    answer();
    await settle();
    expect(attempts).toBe(2);
    expect(shown().availability).toBe('available');
  });

  it('re-registers a device found unregistered back in the foreground, and says so when it cannot', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = false;
    const reconnect = vi.fn(() => (fail ? Promise.reject(new Error('offline')) : Promise.resolve()));
    const { controller, shown, phone } = await ready(fakeSoftphone({ reconnect }));
    controller.foreground();
    expect(reconnect).not.toHaveBeenCalled();
    phone.emit('unregistered');
    expect(shown().banner).toMatchObject({ state: 'error', message: 'Device disconnected' });
    controller.foreground();
    expect(reconnect).toHaveBeenCalledTimes(1);
    expect(shown().banner?.message).toBe('Reconnecting...');
    fail = true;
    controller.foreground();
    await settle();
    expect(shown().banner).toEqual({ state: 'error', message: 'Connection lost. Please refresh the page.' });
  });

  it('registers by itself when its first registration fails, without a reload or the tab coming back', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let attempts = 0;
    const reconnect = vi.fn(async () => {
      // The first attempt finds the service still away; the second registers.
      if (++attempts === 1) throw new Error('offline');
      phone.emit('registered');
    });
    const phone = fakeSoftphone({ reconnect });
    const { controller, shown } = controllerOf(phone);
    controller.start();
    await settle();
    phone.emit('error', new SoftphoneError('Could not connect to Twilio', 53000));
    expect(shown().banner).toEqual({ state: 'error', message: 'Connection error: Could not connect to Twilio' });
    // Another error meanwhile does not put the attempt off.
    await vi.advanceTimersByTimeAsync(RECOVER_DELAYS_MS[0] - 1);
    phone.emit('error', new SoftphoneError('Could not connect to Twilio', 53000));
    await vi.advanceTimersByTimeAsync(1);
    expect(reconnect).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(RECOVER_DELAYS_MS[1]);
    expect(reconnect).toHaveBeenCalledTimes(2);
    expect(shown().registered).toBe(true);
    expect(shown().banner).toEqual({ state: 'ready', message: 'Ready to make and take calls' });
    await vi.advanceTimersByTimeAsync(RECOVER_DELAYS_MS[4]);
    expect(reconnect).toHaveBeenCalledTimes(2);
  });

  it('goes on trying by itself after a failed reconnect in the foreground', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = true;
    const reconnect = vi.fn(async () => {
      if (fail) throw new Error('offline');
      phone.emit('registered');
    });
    const phone = fakeSoftphone({ reconnect });
    const { controller, shown } = controllerOf(phone);
    controller.start();
    await settle();
    // Never registered (its registration still under way when the tab went to the background and back).
    controller.foreground();
    await settle();
    expect(shown().banner).toEqual({ state: 'error', message: 'Connection lost. Please refresh the page.' });
    fail = false;
    await vi.advanceTimersByTimeAsync(RECOVER_DELAYS_MS[0]);
    expect(reconnect).toHaveBeenCalledTimes(2);
    expect(shown().registered).toBe(true);
    expect(shown().banner?.message).toBe('Ready to make and take calls');
  });

  it('stop lets the device go and its timers; start again (React StrictMode) starts a new device', async () => {
    const { controller, shown, phone, create } = await ready();
    controller.stop();
    expect(phone.destroyed).toBe(1);
    phone.emit('incoming', incoming());
    expect(shown().callState.status).toBe('idle');
    controller.start();
    await settle();
    expect(create).toHaveBeenCalledTimes(2);
    expect(shown().availability).toBe('available');
  });
});
