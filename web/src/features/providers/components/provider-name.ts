import type { Provider } from '@shared/contract/settings';

const NAMES: Record<Provider['type'], string> = { TWILIO: 'Twilio' };

/** 'Twilio' for TWILIO: the name people know the provider by. */
export const providerName = (type: Provider['type']) => NAMES[type] ?? type;
