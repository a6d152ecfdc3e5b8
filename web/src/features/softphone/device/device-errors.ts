/**
 * The Voice SDK's error codes in the words docs/product.md §8 gives them. The SDK reports some signalling codes
 * under their newer number (31201 arrives as 20151, 31204 as 20101, 31205 as 20104), so both are listed.
 * https://www.twilio.com/docs/api/errors
 */

export const PERMISSION_DENIED = 'Microphone permission denied. Allow microphone access for this site and try again.';

const MESSAGES: Record<number, string> = {
  20101: 'Access token invalid',
  20104: 'Access token expired',
  20151: 'Authentication failed',
  31000: 'Offer/answer processing failure',
  31003: 'Connection with the provider was interrupted',
  31201: 'Authentication failed',
  31204: 'Access token invalid',
  31205: 'Access token expired',
  31208: PERMISSION_DENIED,
  31401: PERMISSION_DENIED,
  31402: 'Media acquisition failed. Check that a microphone is connected and not in use.',
  31480: 'No answer',
  31486: 'Busy',
  31603: 'Declined',
};

/** The far end's answers to a call it did not take (Twilio hangs up with them): how the call ended, not a failure. */
const FAR_END_CODES = new Set([31480, 31486, 31603]);
/** The SDK's 'Error sent from gateway in HANGUP': it wraps a code it has no class for, kept as `originalError`. */
const GATEWAY_HANGUP = 31005;

const codeOf = (error: unknown): number | null =>
  typeof error === 'object' && error && 'code' in error && typeof error.code === 'number' ? error.code : null;

/** What a failure of the device or a call tells the agent. */
export class SoftphoneError extends Error {
  constructor(
    message: string,
    readonly code: number | 'NO_PROVIDER_CONFIGURED' | null = null,
  ) {
    super(message);
    this.name = 'SoftphoneError';
  }
}

/** The SDK's TwilioError (or anything thrown) as a SoftphoneError with the message of docs/product.md §8. */
export function toSoftphoneError(error: unknown): SoftphoneError {
  if (error instanceof SoftphoneError) return error;
  const outer = codeOf(error);
  const inner =
    outer === GATEWAY_HANGUP && typeof error === 'object' && error && 'originalError' in error ? error.originalError : null;
  const code = codeOf(inner) ?? outer;
  if (code === null) return new SoftphoneError(error instanceof Error && error.message ? error.message : 'Unknown error');
  const known = MESSAGES[code];
  if (known) return new SoftphoneError(known, code);
  if (code >= 53000 && code < 54000) return new SoftphoneError('Connection error with the provider', code);
  const description = typeof error === 'object' && error && 'description' in error ? String(error.description) : '';
  return new SoftphoneError(description ? `Provider error: ${description}` : 'Unknown error', code);
}

/** Busy, no answer, declined: how an unanswered call ended (shown as its outcome, not as an error). */
export const isFarEndAnswer = (error: SoftphoneError) => typeof error.code === 'number' && FAR_END_CODES.has(error.code);

/** Errors about the microphone end the call they came with but leave the device as it was. */
export const isMicrophoneError = (error: SoftphoneError) => error.code === 31208 || error.code === 31401 || error.code === 31402;
