import { describe, expect, it } from 'vitest';
import { callRoute, signUp } from '../support/api';
import { endpoints } from '../support/endpoints';
import { newPhone } from '../support/sms';
import { addTeamMember } from '../support/team';
import { answerCall, callFromPhone, emulatorCall, emulatorConference, hangUpCall } from '../support/twilio';
import { identityOf, listCalls, voiceLine } from '../support/voice';

/** docs/product.md: Hold. One company (a line ringing its owner) for the file: each test its own call. */
describe('holding a call', async () => {
  const line = await voiceLine({ members: 1 });
  const [socket] = line.sockets;
  if (!socket) throw new Error('a socket expected');
  const hold = (callId: string, held: boolean, token = line.owner.tokens.accessToken) =>
    callRoute(endpoints.holdCall, { params: { callId }, body: { held }, token });

  /** A call from a phone, answered by the owner's browser and moved into its conference. */
  async function answeredCall() {
    const call = await callFromPhone({ from: newPhone(), to: line.channel.identifier });
    await answerCall(call.sid, `client:${identityOf(line.owner)}`);
    await expect
      .poll(async () => (await listCalls(line.owner)).body.data.calls.find((c) => c.providerCallId === call.sid)?.callStatus)
      .toBe('IN_PROGRESS');
    const found = (await listCalls(line.owner)).body.data.calls.find((c) => c.providerCallId === call.sid);
    const name = `call-${found?.id}`;
    // Both parties in the call's conference: the customer through the Dial's action, the agent's leg redirected.
    await expect
      .poll(async () => (await emulatorConference(name))?.participants.filter((p) => p.status === 'connected').length)
      .toBe(2);
    return { call, name };
  }

  it('holds the customer with hold music and brings them back; the agent’s tabs hear of each', async () => {
    const { call, name } = await answeredCall();
    const held = await hold(call.sid, true);
    expect(held.status).toBe(200);
    expect(held.body.data.call).toMatchObject({ providerCallId: call.sid, held: true, callStatus: 'IN_PROGRESS' });
    const customer = (await emulatorConference(name))?.participants.find((p) => p.callSid === call.sid);
    expect(customer).toMatchObject({ hold: true });
    expect(customer?.heard.map((h) => h.what)).toContain('hold-music');
    expect((await socket.next('call_held')).data).toMatchObject({ callSid: call.sid, held: true, holdSeconds: 0 });
    // Holding again changes nothing.
    expect((await hold(call.sid, true)).body.data.call.held).toBe(true);

    const resumed = await hold(call.sid, false);
    expect(resumed.body.data.call).toMatchObject({ held: false });
    expect((await emulatorConference(name))?.participants.find((p) => p.callSid === call.sid)?.hold).toBe(false);
    expect((await socket.next('call_held')).data).toMatchObject({ callSid: call.sid, held: false, heldSince: null });
    // The agent and the caller are still on the call.
    expect((await emulatorCall(call.sid)).status).toBe('in-progress');
    await hangUpCall(call.sid);
    await expect
      .poll(async () => (await listCalls(line.owner)).body.data.calls.find((c) => c.providerCallId === call.sid)?.callStatus)
      .toBe('COMPLETED');
  });

  it('a customer who hangs up on hold ends the call COMPLETED, with the hold time and the agent’s leg', async () => {
    const { call } = await answeredCall();
    const heldAt = Date.now();
    expect((await hold(call.sid, true)).status).toBe(200);
    await hangUpCall(call.sid);
    await expect
      .poll(async () => (await listCalls(line.owner)).body.data.calls.find((c) => c.providerCallId === call.sid)?.callStatus)
      .toBe('COMPLETED');
    const endedAt = Date.now();
    const record = (await listCalls(line.owner)).body.data.calls.find((c) => c.providerCallId === call.sid);
    expect(record?.held).toBe(false);
    expect(record?.holdSeconds).toBeGreaterThanOrEqual(0);
    expect(record?.holdSeconds).toBeLessThanOrEqual(Math.ceil((endedAt - heldAt) / 1000));
    expect(record?.legs).toEqual([
      expect.objectContaining({ userId: line.owner.user.id, userName: line.owner.user.name, endedAt: expect.any(String) }),
    ]);
    // The agent's leg ended with the conference.
    await expect.poll(async () => (await emulatorCall(call.sid)).legs.every((l) => l.status !== 'in-progress')).toBe(true);
    // Ended: no more holding.
    const late = await hold(call.sid, false);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({
      success: false,
      error: { message: 'This call is not in progress, so it cannot be put on hold.' },
    });
  });

  it('is refused for a call the member cannot see, another company’s, and nonsense', async () => {
    const { call } = await answeredCall();
    const outsider = await signUp();
    expect((await hold(call.sid, true, outsider.tokens.accessToken)).status).toBe(404);
    // A colleague in no inbox does not see the call.
    const colleague = await addTeamMember(line.owner, { name: 'Not on it', role: 'AGENT' });
    expect((await hold(call.sid, true, colleague.tokens.accessToken)).status).toBe(404);
    expect((await hold('not-a-call', true)).status).toBe(404);
    const bad = await callRoute(endpoints.holdCall, {
      params: { callId: call.sid },
      body: { held: 'yes' } as unknown as { held: boolean },
      token: line.owner.tokens.accessToken,
    });
    expect(bad.status).toBe(400);
    await hangUpCall(call.sid);
  });
});
