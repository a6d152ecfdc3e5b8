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

/** Field errors the server sent in `error.details.fields`, for the fields this form has. */
export function serverFieldErrors<K extends string>(error: unknown, fields: readonly K[]): FieldErrors<K> {
  if (!(error instanceof ApiError)) return {};
  const sent = (error.details?.fields ?? {}) as Record<string, string>;
  const out: FieldErrors<K> = {};
  for (const f of fields) if (sent[f]) out[f] = sent[f];
  return out;
}
