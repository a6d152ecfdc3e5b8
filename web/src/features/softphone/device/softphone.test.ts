import { EventEmitter } from 'node:events';
import type { Device } from '@twilio/voice-sdk';
import { describe, expect, it, vi } from 'vitest';
import type { SoftphoneError } from './device-errors';
import { BACKGROUND_RENEW_MS, createSoftphone } from './softphone';
import type { VoiceTokenSource } from './voice-tokens';

/**
 * The wrapper over stand-ins of the SDK's Device and Call that act as the SDK does in the two cases
 * the browser tests cannot bring about on demand: a signalling socket that closes while a call rings,
 * and a token Twilio refuses.
 */
class SdkCall extends EventEmitter {
  parameters: Record<string, string> = {};
  customParameters = new Map<string, string>();
  state = 'ringing';
  status = () => this.state;
  disconnect = vi.fn();
  /** Call._onTransportClose: without a reconnect token the call is closed, and nothing is emitted after. */
  loseSignalling(reconnectToken: boolean) {
    this.emit('transportClose');
    this.state = reconnectToken ? 'reconnecting' : 'closed';
  }
}

class SdkDevice extends EventEmitter {
  static made: SdkDevice[] = [];
  state = 'unregistered';
  isBusy = false;
  readonly calls: SdkCall[] = [];
  constructor(readonly token: string) {
    super();
    SdkDevice.made.push(this);
  }
  register = vi.fn(async () => {});
  destroy = vi.fn();
  updateToken = vi.fn();
  connect = vi.fn(async () => {
    const call = new SdkCall();
    this.calls.push(call);
    return call;
  });
}

function softphoneOn(tokens: VoiceTokenSource) {
  SdkDevice.made = [];
  return createSoftphone({
    tokens,
    loadSdk: async () => ({ Device: SdkDevice as unknown as typeof Device }),
    options: {},
  });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the softphone over the SDK', () => {
  it('ends a ringing call whose signalling closed (the SDK closes it without a word) so a next call can start', async () => {
    const phone = softphoneOn({ get: async () => 't1', replace: async () => 't2' });
    await phone.start();
    const device = SdkDevice.made[0];
    const call = await phone.connect({ To: '+14155550142', From: '+14155550101' });
    const ended = vi.fn();
    call.on('disconnect', ended);
    const sdkCall = device?.calls[0];
    const freed = vi.fn();
    // The SDK's Device forgets its active call on the call's own `disconnect`.
    sdkCall?.on('disconnect', freed);
    sdkCall?.loseSignalling(false);
    await settle();
    expect(ended).toHaveBeenCalledTimes(1);
    expect(freed).toHaveBeenCalledTimes(1);
  });

  it('leaves a call that can reconnect (Twilio gave it a reconnect token) to the SDK', async () => {
    const phone = softphoneOn({ get: async () => 't1', replace: async () => 't2' });
    await phone.start();
    const call = await phone.connect({ To: '+14155550142', From: '+14155550101' });
    const ended = vi.fn();
    call.on('disconnect', ended);
    SdkDevice.made[0]?.calls[0]?.loseSignalling(true);
    await settle();
    expect(ended).not.toHaveBeenCalled();
  });

  it('replaces a refused token (a stored one whose key is gone) once by a new device on a new token', async () => {
    const tokens = { get: vi.fn(async () => 'stored'), replace: vi.fn(async () => 'new') };
    const phone = softphoneOn(tokens);
    const errors: SoftphoneError[] = [];
    phone.on('error', (error) => errors.push(error));
    await phone.start();
    const [first] = SdkDevice.made;
    first?.emit('error', Object.assign(new Error('AccessTokenInvalid'), { code: 20101 }));
    await settle();
    expect(tokens.replace).toHaveBeenCalledWith('stored');
    expect(first?.destroy).toHaveBeenCalled();
    const second = SdkDevice.made[1];
    expect(second?.token).toBe('new');
    expect(second?.register).toHaveBeenCalled();
    expect(errors).toEqual([]);

    // Refused again before registering: that one is told.
    second?.emit('error', Object.assign(new Error('AccessTokenInvalid'), { code: 20101 }));
    await settle();
    expect(SdkDevice.made).toHaveLength(2);
    expect(errors.map((e) => e.message)).toEqual(['Access token invalid']);
  });

  it('in a hidden tab, renews a token that ends within BACKGROUND_RENEW_MS, once, and leaves a younger one', async () => {
    /** A voice token as Twilio's library writes it: only its `exp` matters here. */
    const jwt = (expSeconds: number) =>
      ['{"alg":"HS256"}', JSON.stringify({ exp: expSeconds })]
        .map((part) => btoa(part).replace(/=+$/, ''))
        .join('.')
        .concat('.sig');
    const now = Date.UTC(2026, 0, 1, 12);
    const ends = now + BACKGROUND_RENEW_MS + 60_000;
    const tokens = { get: vi.fn(async () => jwt(ends / 1000)), replace: vi.fn(async () => jwt(ends / 1000 + 900)) };
    const phone = softphoneOn(tokens);
    await phone.start();
    const [device] = SdkDevice.made;

    phone.keepRegistered(now);
    await settle();
    expect(tokens.replace).not.toHaveBeenCalled();

    // A minute later (a hidden tab's tick), the token ends within the margin: renewed before it lapses.
    phone.keepRegistered(now + 60_000);
    phone.keepRegistered(now + 60_000);
    await settle();
    expect(tokens.replace).toHaveBeenCalledTimes(1);
    expect(device?.updateToken).toHaveBeenCalledWith(jwt(ends / 1000 + 900));
  });
});
