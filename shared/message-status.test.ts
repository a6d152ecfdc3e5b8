import { describe, expect, it } from 'vitest';
import { canRetry } from './message-status';

describe('canRetry', () => {
  const failed = { direction: 'OUTBOUND', status: 'FAILED', providerMessageId: null } as const;

  it('lets an outbound message that failed before Twilio took it be sent again', () => {
    expect(canRetry(failed)).toBe(true);
  });

  it('refuses one Twilio took (a late status of it could land on the retry), one not failed, and an inbound one', () => {
    expect(canRetry({ ...failed, providerMessageId: 'SM0123' })).toBe(false);
    for (const status of ['QUEUED', 'SENDING', 'SENT', 'DELIVERED', 'UNDELIVERED'] as const) {
      expect(canRetry({ ...failed, status }), status).toBe(false);
    }
    expect(canRetry({ ...failed, direction: 'INBOUND', status: 'RECEIVED' })).toBe(false);
  });
});
