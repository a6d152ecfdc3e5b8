import type { ProviderNumber } from '@shared/contract/settings';
import type { ImportNumber } from '../api/providers-api';

/** Chosen numbers by sid, with the capabilities to point at the platform. */
export type Selection = ReadonlyMap<string, ImportNumber['capabilities']>;

/** docs/product.md §2: ticking a number ticks every capability it supports. */
export const defaultCapabilities = (number: ProviderNumber): ImportNumber['capabilities'] => ({
  voice: number.capabilities.voice,
  sms: number.capabilities.sms,
});

/** docs/product.md §5: only numbers not yet imported can be chosen; nor can another company's channel. */
export const selectable = (number: ProviderNumber) => !number.imported && !number.inUseElsewhere;

/** A number counts as selected only with a capability to import: with none there is nothing to point anywhere. */
export const isSelected = (chosen: ImportNumber['capabilities'] | undefined) => Boolean(chosen && (chosen.voice || chosen.sms));

export function toggleNumber(selection: Selection, number: ProviderNumber, on: boolean): Selection {
  if (!selectable(number)) return selection;
  const next = new Map(selection);
  if (on) next.set(number.sid, defaultCapabilities(number));
  else next.delete(number.sid);
  return next;
}

/** docs/product.md §5: a capability can only be ticked where the number supports it. */
export function toggleCapability(
  selection: Selection,
  number: ProviderNumber,
  capability: keyof ImportNumber['capabilities'],
  on: boolean,
): Selection {
  const current = selection.get(number.sid);
  if (!current || !number.capabilities[capability]) return selection;
  const next = new Map(selection);
  next.set(number.sid, { ...current, [capability]: on });
  return next;
}

/**
 * The import payload, in the order the numbers are listed; never an imported number, an unsupported
 * capability, or a number with no capability ticked.
 */
export function importPayload(numbers: readonly ProviderNumber[], selection: Selection): ImportNumber[] {
  return numbers.flatMap((number) => {
    const chosen = selection.get(number.sid);
    if (!chosen || !selectable(number)) return [];
    const capabilities = { voice: chosen.voice && number.capabilities.voice, sms: chosen.sms && number.capabilities.sms };
    if (!isSelected(capabilities)) return [];
    return [
      {
        sid: number.sid,
        phoneNumber: number.phoneNumber,
        capabilities,
      },
    ];
  });
}

/** 'Import 1 Number', 'Import 3 Numbers'. */
export const importButtonLabel = (count: number) => `Import ${count} ${count === 1 ? 'Number' : 'Numbers'}`;
