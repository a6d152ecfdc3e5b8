import type * as z from 'zod/mini';
import { ApiError } from './api-client';

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** Moves focus to the first field, in form order, that has an error. */
export function focusFirstInvalid<K extends string>(
  order: readonly K[],
  errors: FieldErrors<K>,
  refs: Partial<Record<K, HTMLElement | null>>,
) {
  const first = order.find((k) => errors[k]);
  if (first) refs[first]?.focus();
}

/**
 * Every field the schema refuses, each with its first message: the request body's own contract, so
 * the form says at once, before sending, all that the server would refuse one answer at a time.
 */
export function schemaFieldErrors<K extends string>(
  schema: z.ZodMiniType,
  values: unknown,
  fields: readonly K[],
): FieldErrors<K> {
  const result = schema.safeParse(values);
  if (result.success) return {};
  const out: FieldErrors<K> = {};
  for (const issue of result.error.issues) {
    const field = fields.find((f) => f === issue.path[0]);
    if (field) out[field] ??= issue.message;
  }
  return out;
}

/** Field errors the server sent in `error.details.fields`, for the fields this form has. */
export function serverFieldErrors<K extends string>(error: unknown, fields: readonly K[]): FieldErrors<K> {
  if (!(error instanceof ApiError)) return {};
  const sent = (error.details?.fields ?? {}) as Record<string, string>;
  const out: FieldErrors<K> = {};
  for (const f of fields) if (sent[f]) out[f] = sent[f];
  return out;
}

/**
 * The form-only rule of a new password typed twice: once the password itself passes, the second
 * typing must match (the server never sees it). `password` is the field as the form names it.
 */
export function withConfirmation<K extends string>(
  errors: FieldErrors<K | 'confirm'>,
  values: { confirm: string } & Partial<Record<K, string>>,
  password: K = 'password' as K,
): FieldErrors<K | 'confirm'> {
  if (errors[password] || values.confirm === values[password]) return errors;
  return { ...errors, confirm: 'The passwords do not match' };
}
