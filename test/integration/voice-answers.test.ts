import { describe, expect, it } from 'vitest';
import { DEFAULT_VOICEMAIL_GREETING } from '../../shared/constants';
import { signUp } from '../support/api';
import { openSocket } from '../support/realtime';
import { newPhone } from '../support/sms';
import { addTeamMember } from '../support/team';
import { callFromPhone, emulatorCall, hangUpCall } from '../support/twilio';
import { listCalls, voiceLine } from '../support/voice';

describe('accept_call and reject_call', () => {
  it('are taken once from an agent the call rings for; anyone else is told why not', async () => {
    const line = await voiceLine({ members: 2 });
    const [first, second] = line.sockets;
    if (!first || !second) throw new Error('two sockets expected');
    const call = await callFromPhone({ from: newPhone(), to: line.channel.identifier });
    await first.next('incoming_call');

    first.send({ type: 'accept_call', data: { callSid: call.sid } });
    await first.beat();
    expect(first.log.some((e) => e.type === 'error')).toBe(false);
    // Accepted already: a second answer from the same agent is refused.
    first.send({ type: 'reject_call', data: { callSid: call.sid } });
    expect((await first.next('error')).data.code).toBe('CALL_NOT_RINGING');

    // A colleague the call does not ring for.
    const bystander = await addTeamMember(line.owner, { name: 'Bystander' });
    const bystanderSocket = await openSocket(bystander);
    bystanderSocket.send({ type: 'accept_call', data: { callSid: call.sid } });
    expect((await bystanderSocket.next('error')).data.code).toBe('CALL_NOT_RINGING');

    // Another company's user: no such call.
    const outsider = await openSocket(await signUp());
    outsider.send({ type: 'accept_call', data: { callSid: call.sid } });
    expect((await outsider.next('error')).data).toEqual({
      code: 'CALL_NOT_FOUND',
      message: `No call ${call.sid} in your company`,
    });
    outsider.send({ type: 'reject_call', data: {} });
    expect((await outsider.next('error')).data.code).toBe('INVALID_MESSAGE');
    await Promise.all([...line.sockets, bystanderSocket, outsider].map((s) => s.close()));
  });

  it('rejected by every agent rung, the ringing ends at once, the caller is offered voicemail and the call is a NO_ANSWER', async () => {
    const line = await voiceLine({ members: 2 });
    const call = await callFromPhone({ from: newPhone(), to: line.channel.identifier });
    const [first, second] = line.sockets;
    if (!first || !second) throw new Error('two sockets expected');
    first.send({ type: 'reject_call', data: { callSid: call.sid } });
    await first.beat();
    // One agent declined: the other still rings.
    expect((await emulatorCall(call.sid)).legs.filter((l) => l.status === 'ringing')).toHaveLength(2);
    second.send({ type: 'reject_call', data: { callSid: call.sid } });
    // Redirected to voicemail: the legs stop ringing and the caller hears the greeting.
    await expect.poll(async () => (await emulatorCall(call.sid)).said).toEqual([DEFAULT_VOICEMAIL_GREETING]);
    expect((await emulatorCall(call.sid)).legs.every((l) => l.status === 'canceled')).toBe(true);
    await hangUpCall(call.sid);
    await expect.poll(async () => (await emulatorCall(call.sid)).status).toBe('completed');
    await expect.poll(async () => (await listCalls(line.owner)).body.data.calls[0]?.callStatus).toBe('NO_ANSWER');
    expect((await first.next('call_ended')).data).toEqual({ callSid: call.sid, callStatus: 'NO_ANSWER' });
    await Promise.all(line.sockets.map((s) => s.close()));
  });
});
