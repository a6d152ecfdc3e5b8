import type { Message } from '@shared/contract/conversations';
import { describe, expect, it } from 'vitest';
import { deliveryStatus, failureReason } from './delivery-status';

const sms = (over: Partial<Message['smsMessage']> = {}): Message['smsMessage'] => ({
  providerStatus: null,
  providerMessageId: null,
  segments: 1,
  errorCode: null,
  errorMessage: null,
  ...over,
});

describe('delivery display (docs/product.md §4)', () => {
  it.each([
    ['SENDING', 'queued', 'Sending'],
    ['SENDING', 'sending', 'Sending'],
    ['SENT', 'sent', 'Sent'],
    ['DELIVERED', 'delivered', 'Delivered'],
    ['FAILED', 'failed', 'Failed'],
    ['UNDELIVERED', 'undelivered', 'Failed'],
    // Message status FAILED wins over whatever the provider said (Twilio refused it at creation).
    ['FAILED', 'accepted', 'Failed'],
    ['FAILED', null, 'Failed'],
    // Anything else is Sent.
    ['SENT', 'accepted', 'Sent'],
    ['SENT', 'scheduled', 'Sent'],
    // Not yet answered by Twilio: still on its way, from the message's own status.
    ['QUEUED', null, 'Sending'],
  ] as const)('%s with provider status %s reads %s', (status, providerStatus, shown) => {
    expect(deliveryStatus({ status, smsMessage: sms({ providerStatus }) })).toBe(shown);
  });

  it('a failure reads as Twilio explained it, with its code', () => {
    expect(failureReason({ smsMessage: sms({ errorCode: 21610, errorMessage: 'Unsubscribed recipient' }) })).toBe(
      'Unsubscribed recipient (error 21610)',
    );
    expect(failureReason({ smsMessage: sms({ errorCode: 30003 }) })).toBe('The message could not be delivered. (error 30003)');
    expect(failureReason({ smsMessage: sms() })).toBeNull();
  });
});
