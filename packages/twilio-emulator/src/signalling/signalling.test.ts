import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { get as httpsGet } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AccessToken from 'twilio/lib/jwt/AccessToken';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { CallMedia, MediaEngine, MediaSession, MediaSide } from '../media/media-session';
import { useTwilioEmulator } from '../test-harness';
import type { CallView } from '../voice/representation';
import { localCertificate } from './certificate';

const PHONE = '+14155550199';
/** A short heartbeat, so a test sees several without waiting the 5 s of `npm start`. */
const HEARTBEAT_MS = 100;
const OUTSIDE = '+14155550142';
const twiml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`;

interface Account {
  accountSid: string;
  authToken: string;
  numbers: { sid: string; phone_number: string; capabilities: { voice: boolean; sms: boolean } }[];
}
interface Signal {
  type: string;
  payload: Record<string, unknown> & { callsid?: string; error?: { code: number; message: string } };
}

/**
 * A stand-in for the WebRTC engine (the real one is werift's, in media/): fixed SDPs, and a record of
 * what signalling asked of it, so these tests see the offers, answers and attachments it makes.
 */
function standInMedia() {
  let sessions = 0;
  const stats = { codec: 'PCMU', received: { packets: 5, bytes: 860, audioPackets: 5 }, sent: { packets: 7, bytes: 1204 } };
  const session = (): MediaSession & { closed: boolean } => {
    const s = {
      id: `session-${++sessions}`,
      closed: false,
      stats: () => stats,
      close: async () => {
        s.closed = true;
      },
    };
    return s;
  };
  const record = {
    offers: 0,
    offersAnswered: [] as string[],
    completed: [] as string[],
    attached: [] as { root: string; side: MediaSide; session: string }[],
    ended: [] as string[],
  };
  const engine: MediaEngine = {
    answer: async (offerSdp) => {
      record.offersAnswered.push(offerSdp);
      return { session: session(), answerSdp: 'v=0 emulator answer' };
    },
    offer: async () => {
      record.offers++;
      return {
        session: session(),
        offerSdp: 'v=0 emulator offer',
        complete: async (answerSdp) => {
          record.completed.push(answerSdp);
        },
      };
    },
    bridge: () => {},
    mix: () => 0,
    leaveMix: () => {},
    close: async () => {},
  };
  const callMedia: CallMedia = {
    attach: (root, side, s) => record.attached.push({ root, side, session: s.id }),
    stats: (root) => (record.attached.some((a) => a.root === root) ? { client: stats } : {}),
    conference: () => {},
    end: async (root) => {
      record.ended.push(root);
    },
  };
  return {
    engine,
    callMedia,
    record,
    stats,
    reset() {
      record.offers = 0;
      for (const list of [record.offersAnswered, record.completed, record.attached, record.ended]) list.length = 0;
    },
  };
}

describe('Twilio emulator: Voice SDK signalling', () => {
  const certificateDir = mkdtempSync(join(tmpdir(), 'switchboard-signalling-'));
  const media = standInMedia();
  const harness = useTwilioEmulator(() => ({
    signalling: { port: 0, certificateDir, heartbeatMs: HEARTBEAT_MS },
    media: { engine: media.engine, callMedia: media.callMedia },
  }));
  const { call } = harness;
  const signallingUrl = () => harness.emulator.signalling?.url ?? '';
  const ca = () => readFileSync(harness.emulator.signalling?.certFile ?? '', 'utf8');
  const sockets: WebSocket[] = [];

  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
    media.reset();
  });
  afterAll(() => rmSync(certificateDir, { recursive: true, force: true }));

  /**
   * A Voice SDK device's socket: sends PStream messages, and waits for the next of a type. Like the
   * SDK's WSTransport it answers each heartbeat (`\n`) with one, and keeps it from the protocol.
   */
  async function device() {
    const socket = new WebSocket(signallingUrl(), { ca: ca() });
    sockets.push(socket);
    const inbox: Signal[] = [];
    const waiting: { type: string; resolve: (s: Signal) => void }[] = [];
    let heartbeats = 0;
    const heartbeatWaiters: { count: number; resolve: () => void }[] = [];
    socket.on('message', (data) => {
      if (String(data) === '\n') {
        socket.send('\n');
        heartbeats++;
        for (const w of heartbeatWaiters.filter((w) => heartbeats >= w.count)) {
          heartbeatWaiters.splice(heartbeatWaiters.indexOf(w), 1);
          w.resolve();
        }
        return;
      }
      const signal = JSON.parse(String(data)) as Signal & { version: string };
      expect(signal.version).toBe('1.6');
      const waiter = waiting.find((w) => w.type === signal.type);
      if (waiter) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve(signal);
      } else inbox.push(signal);
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    return {
      send: (type: string, payload: Record<string, unknown>) => socket.send(JSON.stringify({ type, version: '1.6', payload })),
      next(type: string): Promise<Signal> {
        const queued = inbox.findIndex((s) => s.type === type);
        if (queued >= 0) return Promise.resolve(inbox.splice(queued, 1)[0] as Signal);
        return new Promise((resolve) => waiting.push({ type, resolve }));
      },
      /** Resolves once `more` heartbeats have come after those already heard. */
      heartbeats(more: number): Promise<void> {
        const count = heartbeats + more;
        return new Promise((resolve) => heartbeatWaiters.push({ count, resolve }));
      },
      /** What arrived and nobody waited for: a test ends expecting nothing unexpected. */
      unread: () => inbox.map((s) => s.type),
      close: () => socket.close(),
      /** The connection is lost (no closing handshake), as when the network goes or the SDK gives up on it. */
      drop: () => socket.terminate(),
    };
  }

  async function newAccount() {
    return (await call<Account>('POST', '/_emulator/accounts')).body;
  }
  const apiKey = (account: Account) => harness.apiKey(account);
  const application = (account: Account, voiceUrl: string) => harness.application(account, { VoiceUrl: voiceUrl });
  function accessToken(
    account: Account,
    key: { sid: string; secret: string },
    options: { identity: string; applicationSid?: string; ttl?: number },
  ) {
    const token = new AccessToken(account.accountSid, key.sid, key.secret, {
      identity: options.identity,
      ttl: options.ttl ?? 3600,
    });
    token.addGrant(new AccessToken.VoiceGrant({ outgoingApplicationSid: options.applicationSid, incomingAllow: true }));
    return token.toJwt();
  }
  /** An account whose first voice number's calls ring the product's TwiML at the receiver's `/voice`. */
  async function answeringAccount(document: string) {
    const account = await newAccount();
    const number = account.numbers.find((n) => n.capabilities.voice) ?? account.numbers[0];
    harness.receiver.twiml('/voice', twiml(document));
    await call('POST', `/2010-04-01/Accounts/${account.accountSid}/IncomingPhoneNumbers/${number?.sid}.json`, {
      auth: account,
      form: { VoiceUrl: `${harness.receiver.base}/voice` },
    });
    return { account, number: number?.phone_number ?? '', key: await apiKey(account) };
  }
  /** A device that listened (telling its reconnect window, 0 s as the SDK does by default) and registered as the identity. */
  async function registered(token: string, reconnectTimeout = 0) {
    const d = await device();
    d.send('listen', { token, browserinfo: {}, reconnectTimeout });
    await d.next('connected');
    d.send('register', { media: { audio: true } });
    await d.next('ready');
    return d;
  }
  const view = async (sid: string) =>
    (await call<CallView & { media: Record<string, unknown> }>('GET', `/_emulator/calls/${sid}`)).body;

  it('listen with a valid token → connected with the identity and the seconds it has left; register → ready; unregister → offline', async () => {
    const account = await newAccount();
    const key = await apiKey(account);
    const d = await device();
    d.send('register', { media: { audio: true } });
    expect((await d.next('error')).payload.error?.code).toBe(31204);

    d.send('listen', { token: accessToken(account, key, { identity: 'alice', ttl: 600 }), browserinfo: {}, reconnectTimeout: 0 });
    const connected = await d.next('connected');
    expect(connected.payload).toMatchObject({ region: 'US_EAST_VIRGINIA', edge: 'ashburn', home: 'us1' });
    expect(connected.payload.token).toMatchObject({ identity: 'alice' });
    expect((connected.payload.token as { ttl: number }).ttl).toBeGreaterThan(590);
    expect((connected.payload.token as { ttl: number }).ttl).toBeLessThanOrEqual(600);

    d.send('register', { media: { audio: true } });
    expect((await d.next('ready')).payload).toEqual({});
    // A token update is a later listen: connected again, with the new token's time.
    d.send('listen', {
      token: accessToken(account, key, { identity: 'alice', ttl: 3600 }),
      browserinfo: {},
      reconnectTimeout: 0,
    });
    expect((await d.next('connected')).payload.token).toMatchObject({ identity: 'alice' });
    d.send('register', { media: { audio: false } });
    await d.next('offline');
    expect(d.unread()).toEqual([]);
  });

  it('refuses wrong and expired tokens with the codes the SDK reports as AccessTokenInvalid and AccessTokenExpired', async () => {
    const account = await newAccount();
    const key = await apiKey(account);
    const d = await device();
    const refusal = async (token: string) => {
      d.send('listen', { token, browserinfo: {}, reconnectTimeout: 0 });
      return (await d.next('error')).payload.error;
    };
    expect(await refusal('not-a-jwt')).toEqual({ code: 31204, message: 'Invalid Access Token: not a JWT' });
    expect(await refusal(accessToken(account, { ...key, secret: 'x'.repeat(32) }, { identity: 'alice' }))).toEqual({
      code: 31204,
      message: 'Invalid Access Token signature',
    });
    expect(await refusal(accessToken(account, key, { identity: 'alice', ttl: -60 }))).toEqual({
      code: 31205,
      message: 'Access Token expired or expiration date invalid',
    });
    d.send('register', { media: { audio: true } });
    expect((await d.next('error')).payload.error?.code).toBe(31204);
  });

  it('an incoming <Dial><Client> invites every registered device of the identity; the first to answer takes it, the others hear cancel', async () => {
    const { account, number, key } = await answeringAccount(
      '<Dial answerOnBridge="true"><Client>alice<Parameter name="note" value="a b&amp;c"/></Client><Client>bob</Client></Dial>',
    );
    const aliceTab1 = await registered(accessToken(account, key, { identity: 'alice' }));
    const aliceTab2 = await registered(accessToken(account, key, { identity: 'alice' }));
    const bob = await registered(accessToken(account, key, { identity: 'bob' }));
    const placed = await call<CallView>('POST', '/_emulator/calls', { json: { from: PHONE, to: number } });
    const [aliceLeg, bobLeg] = placed.body.legs;

    const invites = await Promise.all([aliceTab1.next('invite'), aliceTab2.next('invite'), bob.next('invite')]);
    expect(invites.map((i) => i.payload.callsid)).toEqual([aliceLeg?.sid, aliceLeg?.sid, bobLeg?.sid]);
    expect(invites[0]?.payload).toEqual({
      callsid: aliceLeg?.sid,
      sdp: 'v=0 emulator offer',
      parameters: {
        CallSid: aliceLeg?.sid,
        From: PHONE,
        To: 'client:alice',
        AccountSid: account.accountSid,
        Params: 'note=a%20b%26c',
      },
      reconnect: expect.any(String),
    });

    aliceTab2.send('answer', { callsid: aliceLeg?.sid, sdp: 'v=0 browser answer' });
    expect((await aliceTab1.next('cancel')).payload).toEqual({ callsid: aliceLeg?.sid });
    expect((await bob.next('cancel')).payload).toEqual({ callsid: bobLeg?.sid });
    await expect.poll(async () => (await view(placed.body.sid)).status).toBe('in-progress');
    const story = await view(placed.body.sid);
    expect(story.legs.map((l) => [l.to, l.status, l.answeredByParty])).toEqual([
      ['client:alice', 'in-progress', 'client:alice'],
      ['client:bob', 'canceled', null],
    ]);
    await expect
      .poll(() => media.record.attached)
      .toEqual([{ root: placed.body.sid, side: 'client', session: expect.any(String) }]);
    expect(media.record.completed).toEqual(['v=0 browser answer']);

    // The phone hangs up: the device that answered hears hangup, and the call's media ends.
    await call('POST', `/_emulator/calls/${placed.body.sid}/hangup`, { json: {} });
    expect((await aliceTab2.next('hangup')).payload).toEqual({ callsid: aliceLeg?.sid });
    await expect.poll(() => media.record.ended).toEqual([placed.body.sid]);
    for (const d of [aliceTab1, aliceTab2, bob]) expect(d.unread()).toEqual([]);
  });

  it('reject declines the leg (busy) and the identity’s other devices stop ringing; the device hanging up ends an answered leg', async () => {
    const { account, number, key } = await answeringAccount('<Dial answerOnBridge="true"><Client>alice</Client></Dial>');
    const token = accessToken(account, key, { identity: 'alice' });
    const [tab1, tab2] = [await registered(token), await registered(token)];
    const first = await call<CallView>('POST', '/_emulator/calls', { json: { from: PHONE, to: number } });
    await Promise.all([tab1.next('invite'), tab2.next('invite')]);
    tab1.send('reject', { callsid: first.body.legs[0]?.sid });
    expect((await tab2.next('cancel')).payload).toEqual({ callsid: first.body.legs[0]?.sid });
    await expect.poll(async () => (await view(first.body.sid)).legs[0]?.status).toBe('busy');

    const second = await call<CallView>('POST', '/_emulator/calls', { json: { from: PHONE, to: number } });
    const legSid = second.body.legs[0]?.sid;
    const [invite] = await Promise.all([tab1.next('invite'), tab2.next('invite')]);
    tab1.send('answer', { callsid: invite.payload.callsid, sdp: 'v=0 browser answer' });
    await tab2.next('cancel');
    await expect.poll(async () => (await view(second.body.sid)).status).toBe('in-progress');
    tab1.send('hangup', { callsid: legSid });
    await expect.poll(async () => (await view(second.body.sid)).status).toBe('completed');
    expect((await view(second.body.sid)).legs[0]?.status).toBe('completed');
    for (const d of [tab1, tab2]) expect(d.unread()).toEqual([]);
  });

  it('a ringing leg that ends unanswered (the caller hangs up, the Dial times out) cancels its invites', async () => {
    const { account, number, key } = await answeringAccount('<Dial answerOnBridge="true"><Client>alice</Client></Dial>');
    const alice = await registered(accessToken(account, key, { identity: 'alice' }));
    const first = await call<CallView>('POST', '/_emulator/calls', { json: { from: PHONE, to: number } });
    await alice.next('invite');
    await call('POST', `/_emulator/calls/${first.body.sid}/hangup`, { json: {} });
    expect((await alice.next('cancel')).payload).toEqual({ callsid: first.body.legs[0]?.sid });

    const second = await call<CallView>('POST', '/_emulator/calls', { json: { from: PHONE, to: number } });
    await alice.next('invite');
    expect((await call<CallView>('POST', `/_emulator/calls/${second.body.sid}/advance`, { json: {} })).body.legs[0]?.status).toBe(
      'no-answer',
    );
    expect((await alice.next('cancel')).payload).toEqual({ callsid: second.body.legs[0]?.sid });
    // Too late: the leg is gone, the device hears cancel again rather than a call.
    alice.send('answer', { callsid: second.body.legs[0]?.sid, sdp: 'v=0 browser answer' });
    expect((await alice.next('cancel')).payload).toEqual({ callsid: second.body.legs[0]?.sid });
    expect(media.record.attached).toEqual([]);
    expect(alice.unread()).toEqual([]);
  });

  it('an invite runs the TwiML application: ringing with the CallSid, answer when the dialed number answers, digits recorded, hangup both ways', async () => {
    const account = await newAccount();
    const callerId = account.numbers[0]?.phone_number ?? '';
    const app = await application(account, `${harness.receiver.base}/outbound`);
    harness.receiver.twiml('/outbound', (request) =>
      twiml(`<Dial callerId="${request.params.From}" answerOnBridge="true"><Number>${request.params.To}</Number></Dial>`),
    );
    const key = await apiKey(account);
    const alice = await registered(accessToken(account, key, { identity: 'alice', applicationSid: app }));
    const params = `To=${encodeURIComponent(OUTSIDE)}&From=${encodeURIComponent(callerId)}`;

    alice.send('invite', { callsid: 'TJSaaaa', sdp: 'v=0 browser offer', twilio: { params } });
    const ringing = await alice.next('ringing');
    const sid = String(ringing.payload.callsid);
    expect(sid).toMatch(/^CA[0-9a-f]{32}$/);
    expect(media.record.offersAnswered).toEqual(['v=0 browser offer']);
    const placed = await view(sid);
    expect(placed).toMatchObject({ from: 'client:alice', to: OUTSIDE, status: 'ringing', application_sid: app });
    expect(placed.legs.map((l) => [l.from, l.to, l.status])).toEqual([[callerId, OUTSIDE, 'ringing']]);

    await call('POST', `/_emulator/calls/${placed.legs[0]?.sid}/answer`, { json: {} });
    expect((await alice.next('answer')).payload).toEqual({
      callsid: sid,
      sdp: 'v=0 emulator answer',
      reconnect: expect.any(String),
    });
    expect(media.record.attached).toEqual([{ root: sid, side: 'client', session: expect.any(String) }]);
    // A call's story carries its media's counts; a leg's are its call's.
    expect((await view(sid)).media).toEqual({ client: media.stats });
    expect((await view(placed.legs[0]?.sid ?? '')).media).toEqual({ client: media.stats });
    alice.send('dtmf', { callsid: sid, dtmf: '1#' });
    alice.send('dtmf', { callsid: sid, dtmf: '12a' });
    expect((await alice.next('error')).payload).toEqual({
      callsid: sid,
      error: { code: 31000, message: expect.stringMatching(/^Could not send DTMF: Illegal character passed into sendDigits/) },
    });
    expect((await view(sid)).digits.map((d) => d.digits)).toEqual(['1#']);
    alice.send('hangup', { callsid: sid });
    await expect.poll(async () => (await view(sid)).status).toBe('completed');
    await expect.poll(() => media.record.ended).toEqual([sid]);

    // The far end hangs up this time: the device hears hangup.
    alice.send('invite', { callsid: 'TJSbbbb', sdp: 'v=0 browser offer', twilio: { params } });
    const second = String((await alice.next('ringing')).payload.callsid);
    const leg = (await view(second)).legs[0]?.sid;
    await call('POST', `/_emulator/calls/${leg}/answer`, { json: {} });
    await alice.next('answer');
    await call('POST', `/_emulator/calls/${leg}/hangup`, { json: {} });
    expect((await alice.next('hangup')).payload).toEqual({ callsid: second });
    expect(alice.unread()).toEqual([]);
  });

  it('a device whose token has no outgoing application cannot call out', async () => {
    const account = await newAccount();
    const alice = await registered(accessToken(account, await apiKey(account), { identity: 'alice' }));
    alice.send('invite', {
      callsid: 'TJScccc',
      sdp: 'v=0 browser offer',
      twilio: { params: `To=${encodeURIComponent(OUTSIDE)}` },
    });
    expect((await alice.next('hangup')).payload).toEqual({
      callsid: 'TJScccc',
      error: { code: 31201, message: 'The Access Token has no outgoing application: it may not call out' },
    });
  });

  /** A GET over TLS trusting the emulator's certificate only. */
  const getTls = (url: string) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      httpsGet(url, { ca: ca() }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });

  it('serves the SDK’s sounds over the same TLS port, with a certificate for localhost kept across restarts', async () => {
    const base = harness.emulator.signalling?.soundsUrl ?? '';
    const incoming = await getTls(`${base}/incoming.wav`);
    expect(incoming.status).toBe(200);
    expect(incoming.headers['content-type']).toBe('audio/wav');
    expect(incoming.headers['access-control-allow-origin']).toBe('*');
    expect(incoming.body.subarray(0, 4).toString()).toBe('RIFF');
    expect((await getTls(`${base}/dtmfh.wav`)).status).toBe(200);
    expect((await getTls(`${base}/cowbell.wav`)).status).toBe(404);

    const stored = await localCertificate(certificateDir);
    expect(stored.cert).toBe(ca());
    expect(new X509Certificate(stored.cert).subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1');
  });

  it('the status page lists the registered devices; a device that goes away is no longer registered nor invited', async () => {
    const { account, number, key } = await answeringAccount('<Dial answerOnBridge="true"><Client>carol</Client></Dial>');
    const token = accessToken(account, key, { identity: 'carol' });
    const leaving = await registered(token);
    const staying = await registered(token);
    const statusPage = async () => (await fetch(`${harness.emulator.url}/`)).text();
    expect(await statusPage()).toContain('carol (2 devices)');
    leaving.close();
    await expect.poll(statusPage).toContain('carol (1 device)');
    const placed = await call<CallView>('POST', '/_emulator/calls', { json: { from: PHONE, to: number } });
    expect((await staying.next('invite')).payload.callsid).toBe(placed.body.legs[0]?.sid);
    expect(media.record.offers).toBe(1);
  });

  it('keeps an idle socket alive with a newline heartbeat every interval, and takes the SDK’s answers as no message', async () => {
    const d = await device();
    await d.heartbeats(3);
    // Every answer the device gave came before this request: none was read as a (malformed) message.
    d.send('register', { media: { audio: true } });
    expect((await d.next('error')).payload.error?.code).toBe(31204);
    expect(d.unread()).toEqual([]);
  });

  /** The emulator's status page no longer lists the identity: its device's socket is gone. */
  async function unregistered(identity: string) {
    await expect.poll(async () => (await fetch(`${harness.emulator.url}/`)).text()).not.toContain(`${identity} (`);
  }
  /** An incoming call answered by a device of `identity` that listened with that reconnect window. */
  async function answeredIncoming(identity: string, reconnectTimeout: number) {
    const { account, number, key } = await answeringAccount(`<Dial answerOnBridge="true"><Client>${identity}</Client></Dial>`);
    const token = accessToken(account, key, { identity });
    const d = await registered(token, reconnectTimeout);
    const placed = await call<CallView>('POST', '/_emulator/calls', { json: { from: PHONE, to: number } });
    const invite = await d.next('invite');
    const legSid = String(invite.payload.callsid);
    d.send('answer', { callsid: legSid, sdp: 'v=0 browser answer' });
    await expect.poll(async () => (await view(placed.body.sid)).status).toBe('in-progress');
    await expect.poll(() => media.record.attached.map((a) => a.root)).toContain(placed.body.sid);
    return { account, key, token, device: d, sid: placed.body.sid, legSid, reconnect: invite.payload.reconnect };
  }
  const resumeInvite = (callsid: string, reconnect: unknown) => ({ callsid, sdp: 'v=0 browser sdp', reconnect, twilio: {} });

  it('an answered call outlives its device’s lost socket: back within its window, the device resumes it with the reconnect token and it goes on', async () => {
    const answered = await answeredIncoming('dana', 30);
    expect(answered.reconnect).toEqual(expect.any(String));
    answered.device.drop();
    await unregistered('dana');
    expect((await view(answered.sid)).status).toBe('in-progress');

    // The SDK on its new socket: listen, register, then `invite` with `reconnect` for the call it kept.
    const back = await registered(answered.token, 30);
    back.send('invite', resumeInvite(answered.legSid, answered.reconnect));
    expect((await back.next('answer')).payload).toEqual({ callsid: answered.legSid, reconnect: answered.reconnect });
    // A token update on a live socket (listen again) makes the SDK resume its call once more, on the same socket.
    back.send('listen', { token: answered.token, browserinfo: {}, reconnectTimeout: 30 });
    await back.next('connected');
    back.send('invite', resumeInvite(answered.legSid, answered.reconnect));
    expect((await back.next('answer')).payload).toEqual({ callsid: answered.legSid, reconnect: answered.reconnect });
    expect((await view(answered.sid)).status).toBe('in-progress');
    expect(media.record.ended).toEqual([]);

    // The call is the returning device's: its digits count, and the phone hanging up reaches it.
    back.send('dtmf', { callsid: answered.legSid, dtmf: '7' });
    await expect.poll(async () => (await view(answered.legSid)).digits.map((d) => d.digits)).toEqual(['7']);
    await call('POST', `/_emulator/calls/${answered.sid}/hangup`, { json: {} });
    expect((await back.next('hangup')).payload).toEqual({ callsid: answered.legSid });
    await expect.poll(() => media.record.ended).toEqual([answered.sid]);
    expect((await view(answered.sid)).status).toBe('completed');
    expect(back.unread()).toEqual([]);
  });

  it('a call the device placed resumes the same way, and the device that came back ends it', async () => {
    const account = await newAccount();
    const app = await application(account, `${harness.receiver.base}/outbound`);
    const callerId = account.numbers[0]?.phone_number ?? '';
    harness.receiver.twiml(
      '/outbound',
      twiml(`<Dial callerId="${callerId}" answerOnBridge="true"><Number>${OUTSIDE}</Number></Dial>`),
    );
    const token = accessToken(account, await apiKey(account), { identity: 'erin', applicationSid: app });
    const erin = await registered(token, 30);
    erin.send('invite', {
      callsid: 'TJSdddd',
      sdp: 'v=0 browser offer',
      twilio: { params: `To=${encodeURIComponent(OUTSIDE)}` },
    });
    const sid = String((await erin.next('ringing')).payload.callsid);
    await call('POST', `/_emulator/calls/${(await view(sid)).legs[0]?.sid}/answer`, { json: {} });
    const { reconnect } = (await erin.next('answer')).payload;
    expect(reconnect).toEqual(expect.any(String));

    erin.drop();
    await unregistered('erin');
    expect((await view(sid)).status).toBe('in-progress');
    const back = await registered(token, 30);
    back.send('invite', resumeInvite(sid, reconnect));
    expect((await back.next('answer')).payload).toEqual({ callsid: sid, reconnect });
    back.send('hangup', { callsid: sid });
    await expect.poll(async () => (await view(sid)).status).toBe('completed');
    await expect.poll(() => media.record.ended).toEqual([sid]);
    expect(back.unread()).toEqual([]);
  });

  it('past its window the call ends, and a device back too late hears hangup; with no window (the SDK’s default) it ends with the socket', async () => {
    const late = await answeredIncoming('fay', 1);
    late.device.drop();
    await expect.poll(async () => (await view(late.sid)).status, { timeout: 15_000 }).toBe('completed');
    expect((await view(late.sid)).legs[0]?.status).toBe('completed');
    await expect.poll(() => media.record.ended).toEqual([late.sid]);
    const back = await registered(late.token, 1);
    back.send('invite', resumeInvite(late.legSid, late.reconnect));
    expect((await back.next('hangup')).payload).toEqual({ callsid: late.legSid });

    const windowless = await answeredIncoming('gus', 0);
    windowless.device.drop();
    await expect.poll(async () => (await view(windowless.sid)).status).toBe('completed');
    expect(back.unread()).toEqual([]);
  });

  it('only a device of the call’s own identity resumes it, and only with its token', async () => {
    const answered = await answeredIncoming('hana', 30);
    answered.device.drop();
    await unregistered('hana');
    const other = await registered(accessToken(answered.account, answered.key, { identity: 'ivan' }), 30);
    other.send('invite', resumeInvite(answered.legSid, answered.reconnect));
    expect((await other.next('hangup')).payload).toEqual({
      callsid: answered.legSid,
      error: { code: 31209, message: 'Reconnect attempt is not authorized.' },
    });
    const back = await registered(answered.token, 30);
    back.send('invite', resumeInvite(answered.legSid, 'not-the-token'));
    expect((await back.next('hangup')).payload).toEqual({
      callsid: answered.legSid,
      error: { code: 31107, message: 'The reconnect parameter is invalid' },
    });
    expect((await view(answered.sid)).status).toBe('in-progress');
    back.send('invite', resumeInvite(answered.legSid, answered.reconnect));
    expect((await back.next('answer')).payload).toEqual({ callsid: answered.legSid, reconnect: answered.reconnect });
    for (const d of [other, back]) expect(d.unread()).toEqual([]);
  });
});
