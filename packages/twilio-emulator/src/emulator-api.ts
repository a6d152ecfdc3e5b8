import type { EmulatorEvents } from './events';
import { readFaults } from './faults';
import type { CallMedia } from './media/media-session';
import { readTextFromPhone, receiveText } from './messaging/inbound';
import { messageView } from './messaging/representation';
import type { AccountRecord } from './model';
import { REFUSAL_STATUS } from './outcome';
import { apiKeyResource, applicationResource, phoneNumberResource } from './representation';
import type { EmulatorStore } from './store';
import { recordingView } from './voice/recordings-representation';
import { callResource } from './voice/representation';
import type { Voice } from './voice/voice';
import { answerVoiceControl } from './voice/voice-controls';

/**
 * The emulator's own endpoints, under `/_emulator/`, for tests and the phone simulator: no
 * credentials (the emulator listens on the loopback interface only). The account's own fields are
 * camelCase; its numbers, applications and keys are exactly as Twilio's API shows them.
 */
export interface ControlAnswer {
  status: number;
  body: unknown;
}

/** An account's whole state, for assertions. API key secrets are never shown again. */
export function accountView(account: AccountRecord, baseUrl = '') {
  return {
    accountSid: account.sid,
    authToken: account.authToken,
    friendlyName: account.friendlyName,
    demo: account.demo,
    numbers: account.numbers.map((n) => phoneNumberResource(account, n)),
    applications: account.applications.map((a) => applicationResource(account, a)),
    keys: account.keys.map((k) => apiKeyResource(k)),
    messages: account.messages.map((m) => messageView(account, m)),
    /** Calls and legs, oldest first, as Twilio's Call resource (the story of each: `GET /_emulator/calls/{Sid}`). */
    calls: account.calls.map((c) => callResource(account, c)),
    /** Recordings `<Record>` made, oldest first, as Twilio's Recording resource with play_beep and callbacks. */
    recordings: account.recordings.map((r) => recordingView(account, r, baseUrl)),
    /** Messaging Services in brief (Twilio's resource: `GET /v1/Services`), with their numbers' SIDs. */
    messagingServices: account.messagingServices.map((s) => ({
      sid: s.sid,
      friendlyName: s.friendlyName,
      inboundRequestUrl: s.inboundRequestUrl || null,
      inboundMethod: s.inboundMethod,
      useInboundWebhookOnNumber: s.useInboundWebhookOnNumber,
      phoneNumberSids: s.phoneNumbers.map((n) => n.sid),
    })),
  };
}

export type AccountView = ReturnType<typeof accountView>;

/**
 * Settings a test can change, for every account or for one (`accounts[sid]`), so tests side by side
 * do not slow or hurry each other: how long the carrier takes for each step of a message's status
 * (`messageStepMs`), and how fast a call's Twilio seconds pass (`callTimeScale`: 0.01 makes a 30 s
 * Dial timeout last 300 ms).
 */
export interface Settings {
  messageStepMs: number;
  callTimeScale: number;
  accounts: Record<string, { messageStepMs?: number; callTimeScale?: number }>;
}

export const MAX_MESSAGE_STEP_MS = 60_000;
export const MIN_CALL_TIME_SCALE = 0.001;

export interface ControlServices {
  store: EmulatorStore;
  /** The emulator's own address: the base of the media URLs its webhooks carry. */
  baseUrl: string;
  voice: Voice;
  /** The calls' audio, when a media engine runs: its counts are part of a call's story. */
  callMedia?: CallMedia;
  events: EmulatorEvents;
  settings: Settings;
  /** The settings a reset goes back to. */
  defaultSettings: () => Settings;
}

export async function answerControlRequest(
  services: ControlServices,
  method: string,
  path: string,
  body: string,
): Promise<ControlAnswer> {
  const { store, settings } = services;
  const voiceAnswer = await answerVoiceControl(services, method, path, parseJson(body));
  if (voiceAnswer) return voiceAnswer;
  if (path === '/_emulator/messages') {
    if (method !== 'POST') return problem(405, `${method} is not allowed here.`);
    const input = parseJson(body);
    if (!input) return problem(400, 'The body must be a JSON object: {"from": "+1…", "to": "<account number>", "body": "…"}.');
    const text = readTextFromPhone(input);
    if (typeof text === 'string') return problem(400, text);
    const answer = await receiveText(services, text);
    return answer.ok ? { status: 201, body: answer.value } : problem(REFUSAL_STATUS[answer.refusal], answer.error);
  }
  if (path === '/_emulator/settings') {
    if (method === 'GET') return { status: 200, body: settings };
    if (method !== 'POST') return problem(405, `${method} is not allowed here.`);
    const options = parseJson(body);
    const { messageStepMs, callTimeScale, accountSid } = options ?? {};
    if (messageStepMs === undefined && callTimeScale === undefined)
      return problem(400, 'Send {"messageStepMs": n} and/or {"callTimeScale": x}, optionally with "accountSid".');
    if (
      messageStepMs !== undefined &&
      (typeof messageStepMs !== 'number' ||
        !Number.isInteger(messageStepMs) ||
        messageStepMs < 1 ||
        messageStepMs > MAX_MESSAGE_STEP_MS)
    ) {
      return problem(400, `Send {"messageStepMs": n} with n a whole number of milliseconds from 1 to ${MAX_MESSAGE_STEP_MS}.`);
    }
    if (
      callTimeScale !== undefined &&
      (typeof callTimeScale !== 'number' || !(callTimeScale >= MIN_CALL_TIME_SCALE && callTimeScale <= 1))
    ) {
      return problem(400, `Send {"callTimeScale": x} with x from ${MIN_CALL_TIME_SCALE} to 1 (1 is real time).`);
    }
    const changes = {
      ...(messageStepMs === undefined ? {} : { messageStepMs: messageStepMs as number }),
      ...(callTimeScale === undefined ? {} : { callTimeScale: callTimeScale as number }),
    };
    if (accountSid === undefined) Object.assign(settings, changes);
    else if (typeof accountSid !== 'string' || !store.account(accountSid))
      return problem(404, `No account ${String(accountSid)} in the emulator.`);
    else settings.accounts[accountSid] = { ...settings.accounts[accountSid], ...changes };
    return { status: 200, body: settings };
  }
  if (path === '/_emulator/faults') {
    if (method === 'GET') return { status: 200, body: store.faults.view() };
    if (method !== 'POST') return problem(405, `${method} is not allowed here.`);
    const options = parseJson(body);
    const read = options ? readFaults(options) : 'The body must be a JSON object.';
    if (typeof read === 'string') return problem(400, read);
    if (read.accountSid !== undefined && !store.account(read.accountSid))
      return problem(404, `No account ${read.accountSid} in the emulator.`);
    store.faults.set(read.faults, read.accountSid);
    return { status: 200, body: store.faults.view() };
  }
  if (path === '/_emulator/accounts') {
    if (method === 'GET') return { status: 200, body: { accounts: store.accounts.map((a) => accountView(a, services.baseUrl)) } };
    if (method === 'POST') {
      const options = parseJson(body);
      if (!options) return problem(400, 'The body must be a JSON object, e.g. {"friendlyName":"Acme"}, or empty.');
      const friendlyName = options.friendlyName;
      if (friendlyName !== undefined && typeof friendlyName !== 'string') return problem(400, 'friendlyName must be a string.');
      return { status: 201, body: accountView(store.createAccount(friendlyName), services.baseUrl) };
    }
    return problem(405, `${method} is not allowed here.`);
  }
  const accountSid = /^\/_emulator\/accounts\/([^/]+)$/.exec(path)?.[1];
  if (accountSid) {
    if (method !== 'GET') return problem(405, `${method} is not allowed here.`);
    const account = store.account(accountSid);
    return account
      ? { status: 200, body: accountView(account, services.baseUrl) }
      : problem(404, `No account ${accountSid} in the emulator.`);
  }
  if (path === '/_emulator/reset') {
    if (method !== 'POST') return problem(405, `${method} is not allowed here.`);
    store.reset();
    services.voice.reset();
    store.faults.reset();
    Object.assign(settings, services.defaultSettings());
    return { status: 200, body: { accounts: store.accounts.map((a) => accountView(a, services.baseUrl)) } };
  }
  return problem(404, `No emulator endpoint ${path}.`);
}

function parseJson(body: string): Record<string, unknown> | undefined {
  if (body.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function problem(status: number, message: string): ControlAnswer {
  return { status, body: { error: message } };
}
