import { parsePhoneNumber } from '../../shared/phone-numbers';

/**
 * A number in any notation as E.164; loaded by toE164 only when needed. A module of its own, so the
 * bundle keeps only the parsing part of shared/phone-numbers (a dynamic import keeps every export).
 */
export const e164Of = (text: string): string | undefined => parsePhoneNumber(text)?.e164;
