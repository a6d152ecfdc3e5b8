import { TOKEN_EXPIRY_WARNING_MS } from '@shared/constants';
import type { Device } from '@twilio/voice-sdk';

/** Every sound the SDK plays (Device.SoundName), by name. */
const SOUND_NAMES = [
  'incoming',
  'outgoing',
  'disconnect',
  'dtmf0',
  'dtmf1',
  'dtmf2',
  'dtmf3',
  'dtmf4',
  'dtmf5',
  'dtmf6',
  'dtmf7',
  'dtmf8',
  'dtmf9',
  'dtmfs',
  'dtmfh',
] as const;

/** The SDK reads `chunderw` and `publishEvents` without declaring them in its public options. */
export type DeviceOptions = Device.Options & { chunderw?: string; publishEvents?: boolean };

/**
 * The Device options of docs/product.md §9: the ashburn edge, PCMU before Opus, debug logging, the expiry warning
 * 10 s before the token ends, and a prompt before closing the tab during a call. A call outlives a lost
 * signalling connection for 30 s, the most Twilio allows (the SDK's `maxCallSignalingTimeoutMs`; at its
 * default 0 Twilio ends the call with the connection): a network blip does not hang up on the customer.
 *
 * `signallingHost` is the local configuration only (VITE_TWILIO_SIGNALLING_HOST, set by `npm start`
 * and the test stacks): the SDK then speaks to the Twilio emulator's signalling, publishes no call
 * quality events to Twilio, and fetches its sounds from the emulator. Production leaves it unset and
 * the SDK uses Twilio's own endpoints.
 */
export function deviceOptions(signallingHost: string | undefined): DeviceOptions {
  const options: DeviceOptions = {
    edge: 'ashburn',
    codecPreferences: ['pcmu', 'opus'] as Device.Options['codecPreferences'],
    logLevel: 'debug',
    tokenRefreshMs: TOKEN_EXPIRY_WARNING_MS,
    closeProtection: true,
    maxCallSignalingTimeoutMs: 30_000,
  };
  if (!signallingHost) return options;
  return {
    ...options,
    chunderw: signallingHost,
    publishEvents: false,
    sounds: Object.fromEntries(
      SOUND_NAMES.map((name) => [name, `https://${signallingHost}/sounds/${name}.wav`]),
    ) as Device.Options['sounds'],
  };
}

/** The local signalling host, when this build has one. */
export const signallingHost = (): string | undefined => import.meta.env.VITE_TWILIO_SIGNALLING_HOST || undefined;
