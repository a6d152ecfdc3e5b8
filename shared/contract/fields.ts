import * as z from 'zod/mini';
import { MIN_PASSWORD_LENGTH } from '../constants';

/** A required text field whose errors name the field the way a person would read it. */
export function requiredText(label: string, max = 200) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be text`) })
    .check(z.trim(), z.minLength(1, `${label} is required`), z.maxLength(max, `${label} must be at most ${max} characters`));
}

export const email = z
  .string({ error: (issue) => (issue.input === undefined ? 'Email is required' : 'Email must be text') })
  .check(
    z.trim(),
    z.minLength(1, 'Email is required'),
    z.maxLength(254, 'Email must be at most 254 characters'),
    z.email('Enter a valid email address'),
    z.toLowerCase(),
  );

/** A password being chosen, its messages naming the field as the form labels it ("New password"). */
export const newPasswordNamed = (label: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be text`) })
    .check(
      z.minLength(1, `${label} is required`),
      z.minLength(MIN_PASSWORD_LENGTH, `${label} must be at least ${MIN_PASSWORD_LENGTH} characters long`),
      z.maxLength(256, `${label} must be at most 256 characters`),
    );

export const newPassword = newPasswordNamed('Password');

export const password = z
  .string({ error: (issue) => (issue.input === undefined ? 'Password is required' : 'Password must be text') })
  .check(z.minLength(1, 'Password is required'), z.maxLength(256, 'Password must be at most 256 characters'));

/** Opaque random tokens (verification, refresh): base64url, 128 bits or more. */
export const opaqueToken = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .check(z.minLength(1, `${label} is required`), z.maxLength(200, `${label} is invalid`));

/** A page size in a query string: a whole number from 1 to `max`, `defaultSize` when left out. */
export const pageLimit = (defaultSize: number, max: number) =>
  z._default(
    z.coerce
      .number({ error: 'limit must be a number' })
      .check(
        z.int('limit must be a whole number'),
        z.minimum(1, 'limit must be at least 1'),
        z.maximum(max, `limit must be at most ${max}`),
      ),
    defaultSize,
  );
