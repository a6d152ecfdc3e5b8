import { describe, expect, it } from 'vitest';
import { isFarEndAnswer, isMicrophoneError, PERMISSION_DENIED, SoftphoneError, toSoftphoneError } from './device-errors';
import { deviceOptions } from './device-options';

/** The SDK's errors carry a numeric code and a description (TwilioError). */
const sdkError = (code: number, description = 'Something') => Object.assign(new Error(`x (${code})`), { code, description });

describe('SDK errors in the words of docs/product.md §8', () => {
  it.each([
    [31201, 'Authentication failed'],
    [20151, 'Authentication failed'],
    [31204, 'Access token invalid'],
    [20101, 'Access token invalid'],
    [31205, 'Access token expired'],
    [20104, 'Access token expired'],
    [31000, 'Offer/answer processing failure'],
    [31003, 'Connection with the provider was interrupted'],
    [31208, PERMISSION_DENIED],
    [31401, PERMISSION_DENIED],
    [53000, 'Connection error with the provider'],
    [53405, 'Connection error with the provider'],
    [31486, 'Busy'],
    [31480, 'No answer'],
    [31603, 'Declined'],
    [31404, 'Provider error: Not Found (HTTP/SIP)'],
  ])('%i → %s', (code, message) => {
    expect(toSoftphoneError(sdkError(code, code === 31404 ? 'Not Found (HTTP/SIP)' : '')).message).toBe(message);
  });

  it("reads the code Twilio's hangup carried when the SDK wraps it (31005, Error sent from gateway in HANGUP)", () => {
    const wrapped = Object.assign(sdkError(31005, 'Error sent from gateway in HANGUP'), {
      originalError: { code: 31486, message: 'Busy Here' },
    });
    const error = toSoftphoneError(wrapped);
    expect([error.code, error.message, isFarEndAnswer(error)]).toEqual([31486, 'Busy', true]);
    expect(isFarEndAnswer(toSoftphoneError(sdkError(31005)))).toBe(false);
  });

  it('names media acquisition failures, and treats the three microphone codes as microphone errors', () => {
    expect(toSoftphoneError(sdkError(31402)).message).toMatch(/^Media acquisition failed/);
    expect([31208, 31401, 31402].every((code) => isMicrophoneError(toSoftphoneError(sdkError(code))))).toBe(true);
    expect(isMicrophoneError(toSoftphoneError(sdkError(31003)))).toBe(false);
  });

  it('keeps a SoftphoneError, and says what anything else said', () => {
    const own = new SoftphoneError('Device not initialized');
    expect(toSoftphoneError(own)).toBe(own);
    expect(toSoftphoneError(new Error('A Call is already active')).message).toBe('A Call is already active');
    expect(toSoftphoneError('?').message).toBe('Unknown error');
  });
});

describe('Device options (docs/product.md §9)', () => {
  it('production: the ashburn edge, PCMU then Opus, debug logs, calls that outlive a lost signalling connection for 30 s, Twilio’s own endpoints and sounds', () => {
    const options = deviceOptions(undefined);
    expect(options).toMatchObject({
      edge: 'ashburn',
      codecPreferences: ['pcmu', 'opus'],
      logLevel: 'debug',
      tokenRefreshMs: 10_000,
      maxCallSignalingTimeoutMs: 30_000,
    });
    expect(options).not.toHaveProperty('chunderw');
    expect(options).not.toHaveProperty('sounds');
    expect(options).not.toHaveProperty('publishEvents');
  });

  it('locally: the emulator’s signalling and sounds, and no insights', () => {
    const options = deviceOptions('localhost:3143');
    expect(options).toMatchObject({ chunderw: 'localhost:3143', publishEvents: false });
    expect(options.sounds?.incoming).toBe('https://localhost:3143/sounds/incoming.wav');
    expect(options.sounds?.dtmfh).toBe('https://localhost:3143/sounds/dtmfh.wav');
  });
});
