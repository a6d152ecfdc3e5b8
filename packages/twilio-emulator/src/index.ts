/** What a host (the product's `npm start`, its tests and benchmarks) uses of the emulator. */
export type { Clock } from './clock';
export type { Logger } from './log';
export type { MediaSide, MediaStats } from './media/media-session';
export { startTwilioEmulator, type TwilioEmulator, type TwilioEmulatorOptions } from './server';
export { twilioSignature, type WebhookParams } from './signature';
