import { describe, expect, it } from 'vitest';
import { newPhone, postWebhook } from '../support/sms';
import { identityOf, inboundParams, listCalls, newCallSid, signedLine } from '../support/voice';

/** Fisher–Yates with a seeded generator: each run of the test sees the same orders. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe('voice webhooks', () => {
  it('refuse a forged signature with 403 and record nothing', async () => {
    const line = await signedLine();
    const callSid = newCallSid();
    const forged = await postWebhook(line.voiceUrl, inboundParams(line, callSid, newPhone()), {
      authToken: 'not the auth token',
    });
    expect(forged.status).toBe(403);
    const status = await postWebhook(
      `${line.voiceUrl}/status`,
      { CallSid: callSid, CallStatus: 'completed' },
      { authToken: line.twilio.authToken, signature: null },
    );
    expect(status.status).toBe(403);
    expect((await listCalls(line.owner)).body.data.calls).toEqual([]);
    await Promise.all(line.sockets.map((s) => s.close()));
  });

  it('record a replayed call once and answer it the same TwiML', async () => {
    const line = await signedLine();
    const params = inboundParams(line, newCallSid(), newPhone());
    const [first, second, third] = await Promise.all([line.post('', params), line.post('', params), line.post('', params)]);
    expect(first?.status).toBe(200);
    expect(first?.contentType).toMatch(/xml/);
    expect(first?.text).toContain('<Dial');
    expect(second?.text).toBe(first?.text);
    expect(third?.text).toBe(first?.text);
    expect((await listCalls(line.owner)).body.data.calls).toHaveLength(1);
    await Promise.all(line.sockets.map((s) => s.close()));
  });

  it('end in the same state whatever the order and number of copies of the status callbacks', async () => {
    const line = await signedLine(2);
    const [taker, other] = line.agents;
    if (!taker || !other) throw new Error('two agents expected');
    for (const seed of [1, 7, 42]) {
      const callSid = newCallSid();
      await line.post('', inboundParams(line, callSid, newPhone()));
      const legA = newCallSid();
      const legB = newCallSid();
      const leg = (sid: string, identity: string, status: string, duration?: string) =>
        (() =>
          line.post('/status', {
            CallSid: sid,
            ParentCallSid: callSid,
            CallStatus: status,
            To: `client:${identity}`,
            ...(duration ? { CallDuration: duration } : {}),
          })) as () => Promise<unknown>;
      const a = identityOf(taker);
      const b = identityOf(other);
      const reports = [
        leg(legA, a, 'initiated'),
        leg(legA, a, 'ringing'),
        leg(legA, a, 'in-progress'),
        leg(legA, a, 'completed', '42'),
        leg(legB, b, 'initiated'),
        leg(legB, b, 'ringing'),
        leg(legB, b, 'canceled', '0'),
        () => line.post('/dial-result', { CallSid: callSid, DialCallStatus: 'completed', DialCallDuration: '42' }),
        () => line.post('/status', { CallSid: callSid, CallStatus: 'completed', CallDuration: '45' }),
      ];
      const order = shuffled([...reports, ...reports.slice(0, 4), ...reports.slice(6)], seed);
      // Half one after another, the rest at once.
      const half = Math.floor(order.length / 2);
      for (const report of order.slice(0, half)) await report();
      await Promise.all(order.slice(half).map((report) => report()));

      const call = (await listCalls(line.owner)).body.data.calls.find((c) => c.providerCallId === callSid);
      expect(call, `seed ${seed}`).toMatchObject({
        callStatus: 'COMPLETED',
        durationSeconds: 42,
        answeredBy: { id: taker.user.id, name: taker.user.name },
      });
    }
    await Promise.all(line.sockets.map((s) => s.close()));
  });

  it('ignore callbacks of calls they do not know, and of another company', async () => {
    const line = await signedLine(1);
    const elsewhere = await signedLine(1);
    const callSid = newCallSid();
    await elsewhere.post('', inboundParams(elsewhere, callSid, newPhone()));
    // Posted, correctly signed, to the first company's webhook: it is not its call.
    const res = await line.post('/status', { CallSid: callSid, CallStatus: 'completed', CallDuration: '9' });
    expect(res.status).toBe(200);
    const unknown = await line.post('/status', { CallSid: newCallSid(), CallStatus: 'completed' });
    expect(unknown.status).toBe(200);
    expect((await listCalls(elsewhere.owner)).body.data.calls[0]?.callStatus).toBe('RINGING');
    expect((await listCalls(line.owner)).body.data.calls).toEqual([]);
    const malformed = await line.post('/status', { CallSid: 'nope', CallStatus: 'completed' });
    expect(malformed.status).toBe(400);
    await Promise.all([...line.sockets, ...elsewhere.sockets].map((s) => s.close()));
  });
});
