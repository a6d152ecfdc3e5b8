import { afterAll, describe, expect, it } from 'vitest';
import { createCallMedia } from './call-media';
import { muLawHasSound } from './g711';
import { isHoldMusic } from './hold-music';
import { createMediaEngine } from './media-engine';
import { afterPackets, Browser, closeBrowsers, expectSilent, isTone, OPUS_SILENCE, SILENCE, VOICE, WAIT } from './test-browser';

const engine = createMediaEngine();
afterAll(async () => {
  await closeBrowsers();
  await engine.close();
});

/** A browser's call answered by the engine (the Voice SDK's outbound call, or the phone page). */
async function answered(browser = new Browser()) {
  const { session, answerSdp } = await engine.answer(await browser.offer());
  await browser.pc.setRemoteDescription({ type: 'answer', sdp: answerSdp });
  return { browser, session };
}

/** The engine invites a browser (a call to a Voice SDK client). */
async function invited() {
  const browser = new Browser();
  const { session, offerSdp, complete } = await engine.offer();
  await complete(await browser.answer(offerSdp));
  return { browser, session };
}

describe('media engine', () => {
  it('answers an Opus-first offer in PCMU with loopback candidates, plays the tone, and counts audio until the browser mutes', async () => {
    const browser = new Browser();
    const { session, answerSdp } = await engine.answer(await browser.offer());
    expect(answerSdp).toMatch(/^a=candidate:\S+ 1 udp \d+ 127\.0\.0\.1 \d+ typ host/m);
    expect(answerSdp).not.toMatch(/^a=candidate:(?!\S+ 1 udp \d+ 127\.0\.0\.1 )/m);
    expect(answerSdp).toMatch(/^a=fingerprint:sha-256 /m);
    await browser.pc.setRemoteDescription({ type: 'answer', sdp: answerSdp });

    await expect.poll(() => session.stats().received.audioPackets, WAIT).toBeGreaterThan(5);
    await expect.poll(() => browser.received.length, WAIT).toBeGreaterThan(5);
    expect(browser.last()).toSatisfy((payload: Buffer) => muLawHasSound(payload));
    const stats = session.stats();
    expect(stats.codec).toBe('PCMU');
    expect(stats.received.bytes).toBe(stats.received.packets * 160);
    expect(stats.sent.packets).toBeGreaterThan(5);

    browser.muted = true;
    // Packets on their way at the mute arrive first: the count is read once silence is arriving.
    await afterPackets(() => session.stats().received.packets, 5);
    const audioWhenMuted = session.stats().received.audioPackets;
    await afterPackets(() => session.stats().received.packets, 10);
    expect(session.stats().received.audioPackets).toBe(audioWhenMuted);

    browser.muted = false;
    await expect.poll(() => session.stats().received.audioPackets, WAIT).toBeGreaterThan(audioWhenMuted);
  });

  it('answers a browser that has only Opus in Opus, counting its sound by frame size', async () => {
    const { browser, session } = await answered(new Browser(true));
    await expect.poll(() => session.stats().received.audioPackets, WAIT).toBeGreaterThan(5);
    expect(session.stats().codec).toBe('opus');
    // No Opus encoder in Node: the emulator's side of an Opus call is silence frames.
    await expect.poll(() => browser.last(), WAIT).toEqual(OPUS_SILENCE);

    browser.muted = true;
    await afterPackets(() => session.stats().received.packets, 5);
    const audioWhenMuted = session.stats().received.audioPackets;
    await afterPackets(() => session.stats().received.packets, 10);
    expect(session.stats().received.audioPackets).toBe(audioWhenMuted);
  });

  it('offers to a browser, bridges two calls both ways, plays the tone again when one side leaves, and ends', async () => {
    const callMedia = createCallMedia(engine);
    const [client, phone] = await Promise.all([invited(), answered()]);
    expect(client.session.stats().codec).toBe('PCMU');
    await expect.poll(() => isTone(client.browser.last()), WAIT).toBe(true);

    callMedia.attach('CA1', 'client', client.session);
    await expect.poll(() => isTone(phone.browser.last()), WAIT).toBe(true);
    callMedia.attach('CA1', 'phone', phone.session);
    // Each browser hears the other's microphone instead of the tone.
    await expect.poll(() => client.browser.last(), WAIT).toEqual(VOICE);
    await expect.poll(() => phone.browser.last(), WAIT).toEqual(VOICE);
    await afterPackets(() => client.browser.received.length, 5);
    expect(client.browser.received.slice(-5)).toEqual(Array(5).fill(VOICE));

    phone.browser.muted = true;
    await expect.poll(() => client.browser.last(), WAIT).toEqual(SILENCE);
    const stats = callMedia.stats('CA1');
    expect(stats.client?.received.audioPackets).toBeGreaterThan(0);
    expect(stats.phone?.received.packets).toBeGreaterThan(stats.phone?.received.audioPackets ?? 0);

    await phone.session.close();
    await expect.poll(() => isTone(client.browser.last()), WAIT).toBe(true);

    await callMedia.end('CA1');
    await expectSilent(client.browser, () => client.session.stats().received.packets);
    expect(callMedia.stats('CA1').client?.sent.packets).toBe(client.session.stats().sent.packets);

    // A side answered as the call ended is closed at once.
    const late = await answered();
    await expect.poll(() => late.browser.received.length, WAIT).toBeGreaterThan(0);
    callMedia.attach('CA1', 'phone', late.session);
    await expectSilent(late.browser, () => late.session.stats().received.packets);
  });

  it('mixes a conference: a held phone hears the hold music and is not heard, the others hear each other, and resume brings it back', async () => {
    const callMedia = createCallMedia(engine);
    const [phone, agent, teammate] = await Promise.all([answered(), invited(), invited()]);
    callMedia.attach('CAphone', 'phone', phone.session);
    callMedia.attach('CAagent', 'client', agent.session);
    const member = (rootCallSid: string, held = false) => ({
      rootCallSid,
      side: rootCallSid === 'CAphone' ? ('phone' as const) : ('client' as const),
      music: held,
      heard: !held,
    });
    callMedia.conference('CF1', [member('CAphone'), member('CAagent')]);
    // Two in the conference hear each other's microphones as they were sent.
    await expect.poll(() => phone.browser.last(), WAIT).toEqual(VOICE);
    await expect.poll(() => agent.browser.last(), WAIT).toEqual(VOICE);

    // A third joins, attached after it was named a member; the phone is held.
    callMedia.conference('CF1', [member('CAphone', true), member('CAagent'), member('CAteammate')]);
    callMedia.attach('CAteammate', 'client', teammate.session);
    await expect.poll(() => isHoldMusic(phone.browser.last()), WAIT).toBe(true);
    await afterPackets(() => phone.browser.received.length, 10);
    expect(phone.browser.received.slice(-10).every(isHoldMusic)).toBe(true);
    // The agent hears the teammate alone (a mix with the phone in it would not be one microphone's packet).
    await expect.poll(() => agent.browser.last(), WAIT).toEqual(VOICE);
    await afterPackets(() => agent.browser.received.length, 10);
    expect(agent.browser.received.slice(-10)).toEqual(Array(10).fill(VOICE));
    expect(teammate.browser.last()).toEqual(VOICE);

    // Resumed: the phone hears the other two mixed, and they hear it mixed with each other.
    callMedia.conference('CF1', [member('CAphone'), member('CAagent'), member('CAteammate')]);
    await expect.poll(() => isHoldMusic(phone.browser.last()), WAIT).toBe(false);
    await afterPackets(() => phone.browser.received.length, 5);
    const heard = phone.browser.last();
    expect(muLawHasSound(heard ?? SILENCE) && !heard?.equals(VOICE) && !isHoldMusic(heard)).toBe(true);

    // The conference ends: each alone hears the tone again.
    callMedia.conference('CF1', []);
    await expect.poll(() => isTone(phone.browser.last()) && !isHoldMusic(phone.browser.last()), WAIT).toBe(true);
    await Promise.all(['CAphone', 'CAagent', 'CAteammate'].map((sid) => callMedia.end(sid)));
  });
});
