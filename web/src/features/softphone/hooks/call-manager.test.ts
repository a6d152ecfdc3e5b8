import { describe, expect, it } from 'vitest';
import { type CallEvent, type CallInfo, type CallState, IDLE, transition } from './call-manager';

const inbound: CallInfo = { direction: 'INCOMING', callSid: 'CA1', from: '+14155550123', to: '+14155550101', contactName: null };
const outbound: CallInfo = { direction: 'OUTGOING', callSid: null, from: null, to: '+442079460958', contactName: null };

const ringing: CallState = { status: 'ringing', call: inbound, since: 1_000, answering: false };
const answering: CallState = { ...ringing, answering: true };
const dialing: CallState = { status: 'dialing', call: outbound, since: 1_000 };
const activeIn: CallState = { status: 'active', call: inbound, since: 5_000 };
const activeOut: CallState = { status: 'active', call: { ...outbound, callSid: 'CA9' }, since: 5_000 };

const ENDINGS = ['reject', 'cancel', 'disconnect', 'hangup', 'failure'] as const;

describe('call manager (docs/product.md §4)', () => {
  describe('incoming', () => {
    it('idle → ringing on an invite, timed from its arrival', () => {
      expect(transition(IDLE, { type: 'incoming', call: inbound, at: 1_000 })).toEqual(ringing);
    });

    it.each([
      ['ringing', ringing],
      ['dialing', dialing],
      ['active', activeIn],
    ] as const)('ignores an invite while %s (Device busy)', (_, state) => {
      expect(transition(state, { type: 'incoming', call: { ...inbound, callSid: 'CA2' }, at: 2_000 })).toBe(state);
    });

    it('Answer marks the ringing call as being answered, once', () => {
      expect(transition(ringing, { type: 'answer' })).toEqual(answering);
      expect(transition(answering, { type: 'answer' })).toBe(answering);
      expect(transition(IDLE, { type: 'answer' })).toBe(IDLE);
      expect(transition(activeIn, { type: 'answer' })).toBe(activeIn);
    });

    it('ringing → active on accept, timed from the answer', () => {
      expect(transition(answering, { type: 'accept', at: 5_000 })).toEqual(activeIn);
    });

    it.each(ENDINGS)('ringing → idle on %s', (type) => {
      expect(transition(ringing, { type })).toEqual(IDLE);
    });

    it.each(ENDINGS)('active → idle on %s', (type) => {
      expect(transition(activeIn, { type })).toEqual(IDLE);
    });
  });

  describe('outbound', () => {
    it('idle → dialing when the agent places a call', () => {
      expect(transition(IDLE, { type: 'dial', call: outbound, at: 1_000 })).toEqual(dialing);
    });

    it.each([
      ['ringing', ringing],
      ['dialing', dialing],
      ['active', activeIn],
    ] as const)('does not place a second call while %s', (_, state) => {
      expect(transition(state, { type: 'dial', call: outbound, at: 2_000 })).toBe(state);
    });

    it('dialing → active when the far end answers, taking the CallSid Twilio gave', () => {
      expect(transition(dialing, { type: 'accept', at: 5_000, callSid: 'CA9' })).toEqual(activeOut);
    });

    it('learns the CallSid when the far end rings, once; ringing means nothing in another state', () => {
      const rung = transition(dialing, { type: 'ringing', callSid: 'CA9' });
      expect(rung).toEqual({ ...dialing, call: { ...outbound, callSid: 'CA9' } });
      expect(transition(rung, { type: 'ringing', callSid: 'CA8' })).toBe(rung);
      expect(transition(dialing, { type: 'ringing', callSid: null })).toBe(dialing);
      expect(transition(ringing, { type: 'ringing', callSid: 'CA9' })).toBe(ringing);
      expect(transition(IDLE, { type: 'ringing', callSid: 'CA9' })).toBe(IDLE);
    });

    it.each(ENDINGS)('dialing → idle on %s', (type) => {
      expect(transition(dialing, { type })).toEqual(IDLE);
    });

    it.each(ENDINGS)('active → idle on %s', (type) => {
      expect(transition(activeOut, { type })).toEqual(IDLE);
    });
  });

  describe('realtime events', () => {
    it('call_answered for the ringing call (someone else took it) → idle', () => {
      expect(transition(ringing, { type: 'call_answered', callSid: 'CA1' })).toEqual(IDLE);
    });

    it('call_answered for another call, or for the call this tab is answering or has answered, changes nothing', () => {
      expect(transition(ringing, { type: 'call_answered', callSid: 'CA2' })).toBe(ringing);
      expect(transition(answering, { type: 'call_answered', callSid: 'CA1' })).toBe(answering);
      expect(transition(activeIn, { type: 'call_answered', callSid: 'CA1' })).toBe(activeIn);
      expect(transition(IDLE, { type: 'call_answered', callSid: 'CA1' })).toBe(IDLE);
    });

    it.each([
      ['ringing', ringing, 'CA1'],
      ['answering', answering, 'CA1'],
      ['active (incoming)', activeIn, 'CA1'],
      ['active (outbound)', activeOut, 'CA9'],
    ] as const)('call_ended for the call while %s → idle', (_, state, callSid) => {
      expect(transition(state, { type: 'call_ended', callSid })).toEqual(IDLE);
    });

    it('call_ended for a dialing call that has rung (busy, no answer) → idle', () => {
      const rung = transition(dialing, { type: 'ringing', callSid: 'CA9' });
      expect(transition(rung, { type: 'call_ended', callSid: 'CA9' })).toEqual(IDLE);
    });

    it('call_ended for another call changes nothing; a dialing call without a CallSid yet is not matched', () => {
      expect(transition(ringing, { type: 'call_ended', callSid: 'CA2' })).toBe(ringing);
      expect(transition(activeIn, { type: 'call_ended', callSid: 'CA2' })).toBe(activeIn);
      expect(transition(dialing, { type: 'call_ended', callSid: 'CA9' })).toBe(dialing);
    });
  });

  it('idle ignores every ending and accept', () => {
    const events: CallEvent[] = [...ENDINGS.map((type) => ({ type })), { type: 'accept', at: 1 }];
    for (const event of events) expect(transition(IDLE, event)).toBe(IDLE);
  });

  it('an active call ignores a second accept', () => {
    expect(transition(activeIn, { type: 'accept', at: 9_000 })).toBe(activeIn);
  });
});
