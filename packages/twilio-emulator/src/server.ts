import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from './clock';
import { refuseCrossSite } from './cross-site';
import { answerControlRequest, type Settings } from './emulator-api';
import { EmulatorEvents } from './events';
import type { Logger } from './log';
import { createCallMedia } from './media/call-media';
import { createMediaEngine } from './media/media-engine';
import type { CallMedia, MediaEngine } from './media/media-session';
import { DEFAULT_MESSAGE_STEP_MS, startCarrier } from './messaging/carrier';
import { messageMediaContent } from './messaging/media-content';
import { answerMessagingRequest, credentialAccountSid } from './messaging/services-api';
import type { DemoCredentials } from './model';
import { answerPhoneRequest } from './phone/phone-api';
import { answerPhoneMedia } from './phone/phone-media';
import { phonePage } from './phone/phone-page';
import { answerApiRequest } from './rest-api';
import { startSignallingServer } from './signalling/signalling-server';
import { voiceSdkSignalling } from './signalling/voice-sdk-signalling';
import { statusPage } from './status-page';
import { EmulatorStore } from './store';
import { notFound } from './twilio-errors';
import { isFinal } from './voice/call-legs';
import { startCallRecordings } from './voice/call-recordings-api';
import { present } from './voice/conferences';
import { startVoice } from './voice/voice';

export interface TwilioEmulatorOptions {
  /** 0 picks a free port. */
  port: number;
  /** Where the state is kept between runs; in memory without one. */
  stateFile?: string;
  /** The demo account, seeded at first start and by reset. */
  demo: DemoCredentials;
  /** How long each step of a sent message's status takes (queued → sending → sent → delivered); 300 ms unless given. */
  messageStepMs?: number;
  /**
   * The Voice SDK's signalling on a TLS port of its own (0 picks a free port), its certificate kept in
   * certificateDir; a heartbeat every heartbeatMs (5 s unless given).
   */
  signalling?: { port: number; certificateDir: string; heartbeatMs?: number };
  /** The WebRTC side of calls the signalling carries. */
  media?: { engine: MediaEngine; callMedia: CallMedia };
  log: Logger;
  /** The time the emulator's dates and token checks go by; the system's unless given. */
  clock?: Clock;
}

export type TwilioEmulator = Awaited<ReturnType<typeof startTwilioEmulator>>;

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The Twilio emulator: Twilio's REST API (the part the product uses) under `/2010-04-01/` and `/v1/`, the
 * emulator's own endpoints under `/_emulator/`, and a status page at `/`. It listens on the loopback
 * interface only.
 */
export async function startTwilioEmulator(options: TwilioEmulatorOptions) {
  const { log } = options;
  const store = EmulatorStore.open({ demo: options.demo, file: options.stateFile, clock: options.clock });
  const defaultSettings = (): Settings => ({
    messageStepMs: options.messageStepMs ?? DEFAULT_MESSAGE_STEP_MS,
    callTimeScale: 1,
    accounts: {},
  });
  const settings = defaultSettings();
  const events = new EmulatorEvents();
  const carrier = startCarrier({
    store,
    events,
    stepMs: (accountSid) => settings.accounts[accountSid]?.messageStepMs ?? settings.messageStepMs,
    log,
  });
  const voice = startVoice({
    store,
    events,
    log,
    timeScale: (accountSid) => settings.accounts[accountSid]?.callTimeScale ?? settings.callTimeScale,
    baseUrl: () => url,
  });
  const recordingsStopped = new AbortController();
  startCallRecordings({ store, events, log, signal: recordingsStopped.signal, baseUrl: () => url });
  /**
   * The WebRTC peers of every call (the Voice SDK's and the phone page's): one engine for the whole
   * emulator, unless a test gives stand-ins.
   */
  const mediaEngine = options.media?.engine ?? createMediaEngine();
  const callMedia = options.media?.callMedia ?? createCallMedia(mediaEngine);
  /** Root calls the phone page joined: their media ends with them (signalling ends those it joined). */
  const phoneJoined = new Set<string>();
  events.on('call', (_account, call) => {
    if (call.parentCallSid === null && isFinal(call) && phoneJoined.delete(call.sid)) void callMedia.end(call.sid);
  });
  // A conference's calls are mixed: the held hear the hold music (or wait for the conference to start).
  events.on('conference', (account, conference) => {
    const members = conference.status === 'completed' ? [] : present(conference);
    callMedia.conference(
      conference.sid,
      members.map((p) => {
        const call = account.calls.find((c) => c.sid === p.callSid);
        // A <Dial> leg is its root call's far party; a call of its own is the party that made it (or, dialled through the API, that it rang).
        const party = call?.parentCallSid || call?.direction === 'outbound-api' ? call.to : (call?.from ?? '');
        return {
          rootCallSid: call?.parentCallSid ?? p.callSid,
          side: party.startsWith('client:') ? ('client' as const) : ('phone' as const),
          music: p.hold || conference.status === 'init',
          heard: !p.hold && !p.muted && conference.status === 'in-progress',
        };
      }),
    );
  });
  const sdkSignalling = options.signalling
    ? voiceSdkSignalling({
        store,
        events,
        voice,
        media: { engine: mediaEngine, callMedia },
        heartbeatMs: options.signalling.heartbeatMs,
        log,
      })
    : undefined;
  const signalling =
    options.signalling && sdkSignalling
      ? await startSignallingServer({
          port: options.signalling.port,
          certificateDir: options.signalling.certificateDir,
          signalling: sdkSignalling,
          log,
        })
      : undefined;
  /** REST requests held by a delay fault; changing the faults lets them through at once. */
  const held = new Set<() => void>();
  const hold = (ms: number) =>
    new Promise<void>((resolve) => {
      const release = () => {
        clearTimeout(timer);
        held.delete(release);
        resolve();
      };
      const timer = setTimeout(release, ms);
      held.add(release);
    });
  /** Releases every held request and returns once they have been acted on (that part is synchronous). */
  async function releaseHeld() {
    for (const release of [...held]) release();
    await new Promise((resolve) => setImmediate(resolve));
  }
  let url = '';

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log.error(`${req.method} ${req.url} failed: ${error instanceof Error ? error.stack : String(error)}`);
      if (!res.headersSent) send(res, 500, { code: 20500, message: 'Internal Server Error', status: 500 });
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const method = req.method ?? 'GET';
    const target = new URL(req.url ?? '/', 'http://emulator');
    const body = await readBody(req);
    if (body === undefined) {
      send(res, 413, { code: 20001, message: 'Request body too large', status: 413 });
      return;
    }
    const refused = refuseCrossSite(req, target.pathname, body);
    if (refused) {
      log.info(`${method} ${target.pathname} → ${refused.status} (${refused.message})`);
      // In Twilio's error shape on its API, the emulator's own elsewhere.
      const rest = isRestPath(target.pathname);
      const code = refused.status === 403 ? 20403 : 20415;
      send(res, refused.status, rest ? { code, message: refused.message, status: refused.status } : { error: refused.message });
      return;
    }

    if (isRestPath(target.pathname)) {
      const request = {
        method,
        path: target.pathname,
        query: target.searchParams,
        form: new URLSearchParams(method === 'POST' ? body : ''),
        authorization: req.headers.authorization,
      };
      const v1 = target.pathname.startsWith('/v1/');
      // A failing Twilio: latency (the request is acted on only after the delay), or an error instead.
      const accountSid = v1
        ? credentialAccountSid({ store, events, baseUrl: url }, request.authorization)
        : /^\/2010-04-01\/Accounts\/([^/.]+)/.exec(target.pathname)?.[1];
      const fault = store.faults.takeRest(accountSid, target.pathname);
      if (fault.delayMs) await hold(fault.delayMs);
      if (fault.error) {
        log.info(`${method} ${target.pathname}${target.search} → ${fault.error.status} (fault)`);
        send(res, fault.error.status, fault.error.body);
        return;
      }
      const answer = v1
        ? answerMessagingRequest({ store, events, baseUrl: url }, request, url)
        : answerApiRequest({ store, events, baseUrl: url, conferences: voice.conferences }, request);
      log.info(`${method} ${target.pathname}${target.search} → ${answer.status}`);
      send(res, answer.status, answer.body, answer.headers);
    } else if (target.pathname === '/_emulator/phone/media') {
      const answer = await answerPhoneMedia(
        { store, mediaEngine, callMedia, joined: phoneJoined },
        method,
        target.pathname,
        body,
      );
      log.info(`${method} ${target.pathname} → ${answer?.status}`);
      send(res, answer?.status ?? 404, answer?.body);
    } else if (method === 'GET' && target.pathname.startsWith('/_emulator/media/')) {
      const answer = messageMediaContent(store, target.pathname);
      log.info(`${method} ${target.pathname} → ${answer.status}`);
      send(res, answer.status, answer.body, answer.headers);
    } else if (answerPhoneRequest({ store, events }, req, res, target)) {
      log.info(`${method} ${target.pathname}${target.search}`);
    } else if (target.pathname.startsWith('/_emulator/')) {
      const answer = await answerControlRequest(
        { store, events, voice, callMedia, settings, defaultSettings, baseUrl: url },
        method,
        target.pathname,
        body,
      );
      if (method === 'POST' && (target.pathname === '/_emulator/faults' || target.pathname === '/_emulator/reset')) {
        await releaseHeld();
      }
      // Reset forgets every call, so nothing may go on playing to them.
      if (method === 'POST' && target.pathname === '/_emulator/reset') {
        phoneJoined.clear();
        await mediaEngine.close();
      }
      log.info(`${method} ${target.pathname} → ${answer.status}`);
      send(res, answer.status, answer.body);
    } else if (target.pathname === '/' && (method === 'GET' || method === 'HEAD')) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(
        method === 'HEAD'
          ? undefined
          : statusPage(
              store,
              url,
              signalling && sdkSignalling && { url: signalling.url, registrations: sdkSignalling.registrations() },
            ),
      );
    } else if (target.pathname === '/phone' && (method === 'GET' || method === 'HEAD')) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(method === 'HEAD' ? undefined : phonePage());
    } else {
      const error = notFound(target.pathname);
      send(res, error.status, error.body);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => {
      void signalling?.stop();
      reject(error);
    });
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  log.info(`Twilio emulator on ${url} (demo account ${options.demo.accountSid})`);

  return {
    url,
    demo: options.demo,
    /** The Voice SDK's signalling (host for its `chunderw` option, URL, sounds, certificate), when started. */
    signalling: signalling && {
      host: signalling.host,
      url: signalling.url,
      soundsUrl: signalling.soundsUrl,
      certFile: signalling.certFile,
    },
    /** For the emulator's own features to come: the same state the API serves. */
    store,
    /** The WebRTC peers: signalling answers a Voice SDK offer (or offers to a client) with it. */
    mediaEngine,
    /** Each call's media by root call SID: signalling attaches the 'client' side, the phone page the 'phone' side. */
    callMedia,
    stop: async () => {
      carrier.stop();
      voice.stop();
      recordingsStopped.abort();
      await Promise.all([
        signalling?.stop(),
        mediaEngine.close(),
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
      ]);
    },
  };
}

/** Twilio's REST APIs: 2010-04-01, and messaging.twilio.com's v1 (Messaging Services) on the same port. */
function isRestPath(path: string): boolean {
  return path.startsWith('/2010-04-01/') || path.startsWith('/v1/');
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (Buffer.isBuffer(body)) {
    res.writeHead(status, { 'Content-Length': String(body.length), ...headers });
    res.end(body);
    return;
  }
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
