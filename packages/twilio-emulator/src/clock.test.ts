import AccessToken from 'twilio/lib/jwt/AccessToken';
import { describe, expect, it } from 'vitest';
import type { Clock } from './clock';
import { demo, useTwilioEmulator } from './test-harness';

/** A clock the test moves by hand. */
function handClock(startIso: string) {
  let time = Date.parse(startIso);
  const clock: Clock = { now: () => time };
  const setMs = (ms: number) => {
    time = ms;
  };
  return { clock, setMs, set: (iso: string) => setMs(Date.parse(iso)) };
}

describe("the emulator's clock", () => {
  const hand = handClock('2026-01-02T03:04:05.678Z');
  const harness = useTwilioEmulator(() => ({ clock: hand.clock }));
  const { call } = harness;
  const base = `/2010-04-01/Accounts/${demo.accountSid}`;

  it("dates the accounts it seeds and the messages it takes by the clock it is given, in Twilio's whole seconds", async () => {
    hand.set('2026-01-02T03:04:05.678Z');
    await call('POST', '/_emulator/reset');
    const account = await call<{ date_created: string }>('GET', `${base}.json`, { auth: demo });
    expect(account.body.date_created).toBe('Fri, 02 Jan 2026 03:04:05 +0000');

    hand.set('2027-07-04T12:00:00Z');
    const sent = await call<{ sid: string; date_created: string; date_updated: string }>('POST', `${base}/Messages.json`, {
      auth: demo,
      form: { From: '+14155550101', To: '+14155550199', Body: 'Hello' },
    });
    expect(sent.body).toMatchObject({
      date_created: 'Sun, 04 Jul 2027 12:00:00 +0000',
      date_updated: 'Sun, 04 Jul 2027 12:00:00 +0000',
    });
    hand.set('2027-07-04T12:00:30Z');
    const fetch = async () =>
      (await call<{ status: string; date_sent: string | null }>('GET', `${base}/Messages/${sent.body.sid}.json`, { auth: demo }))
        .body;
    await expect.poll(async () => (await fetch()).status).toBe('delivered');
    expect((await fetch()).date_sent).toBe('Sun, 04 Jul 2027 12:00:30 +0000');
  });

  it('checks an Access Token at the time the clock says: valid now, expired two hours on', async () => {
    hand.setMs(Date.now());
    const key = await harness.apiKey(demo);
    const token = new AccessToken(demo.accountSid, key.sid, key.secret, { identity: 'alice', ttl: 3600 });
    token.addGrant(new AccessToken.VoiceGrant({ incomingAllow: true }));
    const jwt = token.toJwt();
    const verify = async () =>
      (
        await call<{ valid: boolean; error: { code: number } | null }>('POST', '/_emulator/tokens/verify', {
          json: { token: jwt },
        })
      ).body;
    expect(await verify()).toMatchObject({ valid: true, error: null });
    hand.setMs(Date.now() + 2 * 60 * 60 * 1000);
    expect(await verify()).toMatchObject({ valid: false, error: { code: 20104 } });
  });
});
