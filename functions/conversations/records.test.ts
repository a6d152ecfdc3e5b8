import { describe, expect, it } from 'vitest';
import { type MessageRecord, toMessage } from './records';

const reply: MessageRecord = {
  id: 'm1',
  companyId: 'c1',
  conversationId: 'v1',
  direction: 'OUTBOUND',
  body: 'On its way',
  status: 'DELIVERED',
  createdAt: '2026-01-01T10:00:00.000Z',
  sentBy: { id: 'u1', name: "Olivia O'Neil" },
  providerStatus: 'delivered',
  providerMessageId: 'SM1',
  segments: 1,
  errorCode: null,
  errorMessage: null,
};

describe('toMessage', () => {
  it('names who sent a reply', () => {
    expect(toMessage(reply).sentBy).toEqual({ id: 'u1', name: "Olivia O'Neil" });
  });

  it('answers null for a reply stored before its sender was kept, as the contract says', () => {
    const { sentBy: _, ...stored } = reply;
    const message = toMessage(stored);
    expect(message.sentBy).toBeNull();
    expect(Object.keys(message)).toContain('sentBy');
  });
});
