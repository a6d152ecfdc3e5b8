import { describe, expect, it } from 'vitest';
import { signUp } from '../support/api';
import { withChannel } from '../support/settings';
import { newPhone } from '../support/sms';
import { addTeamMember } from '../support/team';
import { advanceCall, answerCall, callFromClient, hangUpCall } from '../support/twilio';
import { listCalls, voiceLine, voiceToken } from '../support/voice';

describe('outbound calls', () => {
  it('with one of the agent’s caller IDs dial the number as that caller ID; answered and hung up, COMPLETED', async () => {
    const line = await voiceLine({ members: 1 });
    const to = newPhone();
    const call = await callFromClient({
      token: await voiceToken(line.owner),
      params: { To: to, From: line.channel.identifier },
    });
    expect(call.legs).toMatchObject([{ to, from: line.channel.identifier, status: 'ringing' }]);
    expect((await listCalls(line.owner)).body.data.calls).toMatchObject([
      {
        direction: 'OUTBOUND',
        callStatus: 'RINGING',
        providerCallId: call.sid,
        contact: { phoneNumber: to },
        channel: { id: line.channel.id, phoneNumber: line.channel.identifier },
        answeredBy: { id: line.owner.user.id, name: line.owner.user.name },
      },
    ]);
    await answerCall(call.sid, to);
    await expect.poll(async () => (await listCalls(line.owner)).body.data.calls[0]?.callStatus).toBe('IN_PROGRESS');
    await hangUpCall(call.sid, to);
    await expect.poll(async () => (await listCalls(line.owner)).body.data.calls[0]?.callStatus).toBe('COMPLETED');
    expect((await line.sockets[0]?.next('call_ended'))?.data).toEqual({ callSid: call.sid, callStatus: 'COMPLETED' });
    await Promise.all(line.sockets.map((s) => s.close()));
  });

  it('a dialled number that is busy or does not answer is BUSY or NO_ANSWER', async () => {
    const line = await voiceLine({ members: 1 });
    const token = await voiceToken(line.owner);
    const busy = newPhone();
    const declined = await callFromClient({ token, params: { To: busy, From: line.channel.identifier } });
    await hangUpCall(declined.sid, busy);
    await expect.poll(async () => (await listCalls(line.owner)).body.data.calls[0]?.callStatus).toBe('BUSY');
    const unanswered = await callFromClient({ token, params: { To: newPhone(), From: line.channel.identifier } });
    await advanceCall(unanswered.sid);
    await expect.poll(async () => (await listCalls(line.owner)).body.data.calls[0]?.callStatus).toBe('NO_ANSWER');
    await Promise.all(line.sockets.map((s) => s.close()));
  });

  it('are refused and recorded FAILED with a caller ID that is not the agent’s, or an invalid number', async () => {
    const line = await voiceLine({ members: 1 });
    // A colleague outside the inbox may not call as its number.
    const outsider = await addTeamMember(line.owner, { name: 'Not A Member' });
    const refused = await callFromClient({
      token: await voiceToken(outsider),
      params: { To: newPhone(), From: line.channel.identifier },
    });
    expect(refused.legs).toEqual([]);
    expect(refused.said.join(' ')).toMatch(/cannot be placed/);
    // Nor as another company's number.
    const other = await signUp();
    const { channel: foreign } = await withChannel(other);
    const token = await voiceToken(line.owner);
    const asForeign = await callFromClient({ token, params: { To: newPhone(), From: foreign.identifier } });
    expect(asForeign.legs).toEqual([]);
    const invalid = await callFromClient({ token, params: { To: '12', From: line.channel.identifier } });
    expect(invalid.legs).toEqual([]);
    expect(invalid.said.join(' ')).toMatch(/cannot be placed/);

    const calls = (await listCalls(line.owner)).body.data.calls;
    expect(calls.map((c) => [c.providerCallId, c.callStatus])).toEqual([
      [invalid.sid, 'FAILED'],
      [asForeign.sid, 'FAILED'],
      [refused.sid, 'FAILED'],
    ]);
    expect((await listCalls(other)).body.data.calls).toEqual([]);
    await Promise.all(line.sockets.map((s) => s.close()));
  });

  it('accept a number typed in the company’s national format', async () => {
    const line = await voiceLine({ members: 1 });
    const call = await callFromClient({
      token: await voiceToken(line.owner),
      params: { To: '(202) 555-0142', From: line.channel.identifier },
    });
    expect(call.legs).toMatchObject([{ to: '+12025550142' }]);
    await Promise.all(line.sockets.map((s) => s.close()));
  });
});
