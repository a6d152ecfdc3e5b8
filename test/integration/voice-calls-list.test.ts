import { describe, expect, it } from 'vitest';
import { signUp } from '../support/api';
import { newPhone } from '../support/sms';
import { inboundParams, listCalls, newCallSid, signedLine } from '../support/voice';

describe('GET /api/v1/calls', () => {
  it('lists the company’s calls newest first, filtered by status and dates, at most `limit`', async () => {
    const line = await signedLine(1);
    const missed = newCallSid();
    await line.post('', inboundParams(line, missed, newPhone()));
    await line.post('/dial-result', { CallSid: missed, DialCallStatus: 'no-answer', DialCallDuration: '0' });
    const between = new Date().toISOString();
    // Sort keys are millisecond times: the next call is certainly later than `between`.
    await expect.poll(() => Date.now() > Date.parse(between)).toBe(true);
    const ringing = newCallSid();
    await line.post('', inboundParams(line, ringing, newPhone()));

    const all = (await listCalls(line.owner)).body.data.calls;
    expect(all.map((c) => [c.providerCallId, c.callStatus])).toEqual([
      [ringing, 'RINGING'],
      [missed, 'NO_ANSWER'],
    ]);
    const only = async (query: Record<string, string>) =>
      (await listCalls(line.owner, query)).body.data.calls.map((c) => c.providerCallId);
    expect(await only({ status: 'NO_ANSWER' })).toEqual([missed]);
    expect(await only({ status: 'RINGING' })).toEqual([ringing]);
    expect(await only({ status: 'COMPLETED' })).toEqual([]);
    expect(await only({ status: '' })).toEqual([ringing, missed]);
    expect(await only({ dateFrom: between })).toEqual([ringing]);
    expect(await only({ dateTo: between })).toEqual([missed]);
    expect(await only({ dateFrom: between, status: 'NO_ANSWER' })).toEqual([]);
    expect(await only({ dateTo: between.slice(0, 10) })).toEqual([ringing, missed]);
    expect(await only({ limit: '1' })).toEqual([ringing]);
    await Promise.all(line.sockets.map((s) => s.close()));
  });

  it('answers 400 for invalid dates, statuses and limits', async () => {
    const owner = await signUp();
    const bad = async (query: Record<string, string>) => {
      const res = await listCalls(owner, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.success).toBe(false);
      return res.body.error.message;
    };
    expect(await bad({ dateFrom: 'yesterday' })).toMatch(/dateFrom must be a date/);
    expect(await bad({ dateTo: '2026-13-45' })).toMatch(/dateTo must be a date/);
    expect(await bad({ status: 'LOST' })).toMatch(/status must be one of/);
    expect(await bad({ limit: '101' })).toMatch(/limit must be at most 100/);
    expect(await bad({ dateFrom: '2026-02-01T00:00:00Z', dateTo: '2026-01-01T00:00:00Z' })).toMatch(/dateFrom/);
  });

  it('never shows another company’s calls', async () => {
    const line = await signedLine(1);
    await line.post('', inboundParams(line, newCallSid(), newPhone()));
    expect((await listCalls(line.owner)).body.data.calls).toHaveLength(1);
    expect((await listCalls(await signUp())).body.data.calls).toEqual([]);
    await Promise.all(line.sockets.map((s) => s.close()));
  });
});
