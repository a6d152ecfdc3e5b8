import { publish } from '../realtime/publish';

/**
 * Tells the company's open tabs that calling now runs on another provider (or none): their voice
 * tokens are signed with a key that is gone, so each device starts again or hides.
 */
export function announceProviderChange(companyId: string, providerId: string, connected: boolean) {
  return publish(companyId, {
    type: 'provider_changed',
    data: { providerId, connected, changedAt: new Date().toISOString() },
  });
}
