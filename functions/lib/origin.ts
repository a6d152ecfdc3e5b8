import { timingSafeEqual } from 'node:crypto';
import { AppError } from './app-error';
import { hasSetting, ORIGIN_SECRET_HEADER, secretVersions } from './config';

/**
 * The execute-api endpoint is public; CloudFront adds the secret origin header to what it forwards.
 * Where a secret is configured (always, in AWS and locally), a request without it did not come
 * through CloudFront and is refused. True when the request carried it.
 */
export async function verifyOrigin(event: { headers?: Record<string, string | undefined> }): Promise<boolean> {
  if (!hasSetting('ORIGIN_SECRET')) return false;
  const given = Buffer.from(event.headers?.[ORIGIN_SECRET_HEADER] ?? '');
  // The previous value too: CloudFront sends a rotated one only after the next deploy.
  const { current, previous } = await secretVersions('ORIGIN_SECRET');
  const matches = (secret: string | undefined) => {
    const expected = Buffer.from(secret ?? '');
    return expected.length > 0 && given.length === expected.length && timingSafeEqual(given, expected);
  };
  if (!matches(current) && !matches(previous)) {
    throw new AppError(403, 'FORBIDDEN', 'Requests must come through the app, not the API endpoint.');
  }
  return true;
}
