import { timingSafeEqual } from 'node:crypto';
import { AppError } from './app-error';
import { hasSetting, ORIGIN_SECRET_HEADER, secretVersions } from './config';

/**
 * Whether `given` is the origin secret CloudFront sends: the current value, or the previous one (a
 * rotated value reaches CloudFront only with the next deploy), which is read only when the current
 * one does not match. Compared in constant time. False where no secret is configured, so a function
 * without one refuses rather than admits.
 */
export async function isOriginSecret(given: string | undefined): Promise<boolean> {
  if (!given || !hasSetting('ORIGIN_SECRET')) return false;
  const givenBytes = Buffer.from(given);
  const { current, previous } = await secretVersions('ORIGIN_SECRET');
  const matches = (secret: string | undefined) => {
    const expected = Buffer.from(secret ?? '');
    return expected.length > 0 && givenBytes.length === expected.length && timingSafeEqual(givenBytes, expected);
  };
  return matches(current) || matches(await previous());
}

/**
 * The execute-api endpoint is public; CloudFront adds the secret origin header to what it forwards. API
 * Gateway's origin authorizer (handlers/system/origin-authorizer.ts) refuses a request without it before any
 * route function runs; the route's own check stays as defence in depth (docs/security.md: Direct calls to the
 * API endpoints). Where a secret is configured (always, in AWS and locally), a request without it did not
 * come through CloudFront and is refused. True when the request carried it.
 */
export async function verifyOrigin(event: { headers?: Record<string, string | undefined> }): Promise<boolean> {
  if (!hasSetting('ORIGIN_SECRET')) return false;
  if (!(await isOriginSecret(event.headers?.[ORIGIN_SECRET_HEADER]))) {
    throw new AppError(403, 'FORBIDDEN', 'Requests must come through the app, not the API endpoint.');
  }
  return true;
}
