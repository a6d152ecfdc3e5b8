import { describe, expect, it } from 'vitest';
import { type CallFact, type CallRecord, callItem, derive, withFact } from './call-records';

const AT = '2026-11-22T10:00:00.000Z';

function call(direction: CallRecord['direction']): CallRecord {
  return derive(
    {
      id: 'call1',
      companyId: 'company1',
      direction,
      providerCallId: 'CA1',
      channelId: 'channel1',
      channelPhoneNumber: '+14155550101',
      contactId: 'contact1',
      contactPhoneNumber: '+12025550100',
      createdAt: AT,
      rungUserIds: [],
      declinedUserIds: [],
      acceptedUserIds: [],
      answeredBy: null,
      outcome: null,
      twilioStatus: 'ringing',
      twilioDurationSeconds: null,
      legs: {},
      dial: null,
      callStatus: 'RINGING',
      durationSeconds: 0,
      endedAt: null,
      version: 1,
    },
    AT,
  );
}

const apply = (record: CallRecord, facts: CallFact[]) => facts.reduce((r, f) => derive(withFact(r, f), AT), record);
const leg = (status: string, durationSeconds?: number): CallFact => ({
  kind: 'leg',
  legSid: 'CA2',
  party: '+12025550100',
  status,
  durationSeconds,
});

describe('call records', () => {
  it('move forward only: a late ringing or in-progress never undoes an end', () => {
    const done = apply(call('OUTBOUND'), [
      leg('ringing'),
      leg('in-progress'),
      leg('completed', 30),
      leg('ringing'),
      leg('in-progress'),
    ]);
    expect(done).toMatchObject({ callStatus: 'COMPLETED', durationSeconds: 30, endedAt: AT });
  });

  it('take the first end of a leg: a busy leg stays busy', () => {
    expect(apply(call('OUTBOUND'), [leg('busy'), leg('completed', 5)]).callStatus).toBe('BUSY');
    expect(apply(call('OUTBOUND'), [leg('no-answer')]).callStatus).toBe('NO_ANSWER');
    expect(apply(call('OUTBOUND'), [leg('failed')]).callStatus).toBe('FAILED');
    expect(apply(call('OUTBOUND'), [leg('canceled')]).callStatus).toBe('NO_ANSWER');
  });

  it('make an inbound call nobody answered a NO_ANSWER, even when all agents declined', () => {
    expect(apply(call('INBOUND'), [{ kind: 'dial', status: 'busy', durationSeconds: 0 }]).callStatus).toBe('NO_ANSWER');
    expect(apply(call('INBOUND'), [{ kind: 'call', status: 'completed', durationSeconds: 4 }])).toMatchObject({
      callStatus: 'NO_ANSWER',
      durationSeconds: 0,
    });
  });

  it('are indexed by their contact (the contact timeline), and not when the other party is no contact', () => {
    expect(callItem(call('INBOUND'))).toMatchObject({
      GSI3PK: 'COMPANY#company1#CONTACT#contact1#CALLS',
      GSI3SK: `${AT}#call1`,
    });
    expect(callItem({ ...call('OUTBOUND'), contactId: null })).not.toHaveProperty('GSI3PK');
  });

  it('ignore statuses Twilio does not have', () => {
    const record = call('INBOUND');
    expect(withFact(record, { kind: 'call', status: 'exploded' })).toBe(record);
  });
});
