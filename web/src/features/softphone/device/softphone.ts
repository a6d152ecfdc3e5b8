import type { Call, Device } from '@twilio/voice-sdk';
import type { CallDirection } from '../hooks/call-manager';
import { SoftphoneError, toSoftphoneError } from './device-errors';
import { type DeviceOptions, deviceOptions, signallingHost } from './device-options';
import type { VoiceTokenSource } from './voice-tokens';

/** One call of the device, as the widget uses it (docs/product.md §7.10). */
export interface PhoneCall {
  readonly direction: CallDirection;
  /** The call as the realtime events name it (see CallInfo.callSid); null until Twilio has given one. */
  callSid(): string | null;
  readonly from: string | null;
  readonly to: string | null;
  readonly contactName: string | null;
  /** The ring said the call is recorded (its `recorded` parameter). */
  readonly recorded?: boolean;
  accept(): void;
  reject(): void;
  /** Stops ringing here without declining for the other agents (someone else took the call). */
  ignore(): void;
  disconnect(): void;
  mute(muted: boolean): void;
  sendDigits(digits: string): void;
  /** `ringing`: an outbound call rings at the far end, and `callSid()` now gives its CallSid. */
  on(event: 'accept' | 'ringing' | 'disconnect' | 'cancel' | 'reject', listener: () => void): void;
  on(event: 'error', listener: (error: SoftphoneError) => void): void;
}

/** docs/product.md §4 Softphone wrapper events. */
export interface SoftphoneEvents {
  registered: [];
  unregistered: [];
  incoming: [PhoneCall];
  tokenWillExpire: [];
  error: [SoftphoneError];
  no_provider: [];
}

export interface Softphone {
  /**
   * Gets a token, loads the SDK and registers the device. Rejects with a SoftphoneError coded
   * NO_PROVIDER_CONFIGURED (after `no_provider`) when the company has no provider.
   */
  start(): Promise<void>;
  /** An outbound call: To in E.164, From the chosen caller ID (docs/product.md §3 Outbound call parameters). */
  connect(params: { To: string; From: string }): Promise<PhoneCall>;
  isRegistered(): boolean;
  /** A fresh token and a new registration, for a device found unregistered (back in the foreground). */
  reconnect(): Promise<void>;
  /**
   * A hidden tab's timers may fire a minute late: its token is renewed now when it ends within
   * BACKGROUND_RENEW_MS of `nowMs`, before the SDK's own warning could come too late (the registration
   * would lapse with the token).
   */
  keepRegistered(nowMs: number): void;
  destroy(): void;
  on<K extends keyof SoftphoneEvents>(event: K, listener: (...args: SoftphoneEvents[K]) => void): () => void;
}

export interface SoftphoneDependencies {
  /** Tokens from POST /voice/token (kept for reuse); an ApiError coded PROVIDER_NOT_FOUND when the company has no provider. */
  tokens: VoiceTokenSource;
  /** The SDK, loaded only when needed: it is the largest part of the app. */
  loadSdk?: () => Promise<{ Device: typeof Device }>;
  options?: DeviceOptions;
}

const isNoProvider = (error: unknown) =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === 'PROVIDER_NOT_FOUND';

/**
 * How early a hidden tab renews its token: a background tab's timers run about once a minute
 * (Chromium's intensive throttling), so two of its ticks fit before the token ends.
 */
export const BACKGROUND_RENEW_MS = 150_000;

/** When a voice token (a JWT) ends, in epoch ms; null when it cannot be read. */
export function tokenEndsAt(token: string | null | undefined): number | null {
  try {
    const payload = JSON.parse(atob((token ?? '').split('.')[1]?.replace(/-/g, '+').replace(/_/g, '/') ?? ''));
    return typeof payload.exp === 'number' ? payload.exp * 1000 : null;
  } catch {
    return null;
  }
}

/** The SDK's AccessTokenInvalid and AccessTokenExpired, under their old and new numbers. */
const TOKEN_REFUSED = new Set([20101, 20104, 31204, 31205]);

/**
 * A call whose signalling socket closed before Twilio gave it a reconnect token (one still ringing)
 * is closed by the SDK without any event, and the Device keeps it as its active call: the widget
 * would stay on it and every later call would fail with 'A Call is already active'. The SDK's own
 * `disconnect` of the call tells both that it is over.
 */
function endSilentlyClosed(call: Call) {
  call.on('transportClose', () =>
    queueMicrotask(() => {
      if (call.status() === 'closed') call.emit('disconnect', call);
    }),
  );
}

/** The SDK's Call as a PhoneCall. */
function wrapCall(call: Call, direction: CallDirection, to?: string): PhoneCall {
  const custom = call.customParameters;
  endSilentlyClosed(call);
  return {
    direction,
    // The ring-all TwiML passes the caller's leg as parentCallSid (functions/voice/twiml.ts).
    callSid: () => custom.get('parentCallSid') ?? call.parameters.CallSid ?? null,
    from: direction === 'INCOMING' ? (custom.get('callerNumber') ?? call.parameters.From ?? null) : null,
    to: direction === 'INCOMING' ? (custom.get('calledNumber') ?? call.parameters.To ?? null) : (to ?? null),
    contactName: custom.get('contactName') ?? null,
    recorded: custom.get('recorded') === 'true',
    accept: () => call.accept(),
    reject: () => call.reject(),
    ignore: () => call.ignore(),
    disconnect: () => call.disconnect(),
    mute: (muted) => call.mute(muted),
    sendDigits: (digits) => call.sendDigits(digits),
    on(event: string, listener: (error?: SoftphoneError) => void) {
      if (event === 'error') call.on('error', (error: unknown) => listener(toSoftphoneError(error)));
      else call.on(event, () => listener());
    },
  } as PhoneCall;
}

/**
 * The wrapper over the Voice SDK's Device (docs/product.md §4): registers once, renews its token before it
 * expires, holds at most one call, and reports SDK failures as SoftphoneErrors in the words of docs/product.md §8. A
 * token Twilio refuses (a stored one signed with a key that is gone) is replaced once by a new
 * device on a new token before anything is reported.
 */
export function createSoftphone(deps: SoftphoneDependencies): Softphone {
  const loadSdk = deps.loadSdk ?? (() => import('@twilio/voice-sdk'));
  const listeners = new Map<keyof SoftphoneEvents, Set<(...args: never[]) => void>>();
  let device: Device | null = null;
  let destroyed = false;
  /** Whether a refused token was replaced since the device last registered. */
  let replacedRefused = false;
  /** A renewal under way (the SDK's warning and a hidden tab's tick may both ask). */
  let renewing: Promise<void> | null = null;

  function emit<K extends keyof SoftphoneEvents>(event: K, ...args: SoftphoneEvents[K]) {
    for (const listener of listeners.get(event) ?? []) (listener as (...a: SoftphoneEvents[K]) => void)(...args);
  }

  async function token(get: () => Promise<string>): Promise<string> {
    try {
      return await get();
    } catch (error) {
      if (!isNoProvider(error)) throw error;
      emit('no_provider');
      throw new SoftphoneError('No provider configured', 'NO_PROVIDER_CONFIGURED');
    }
  }

  function renewToken(current: Device) {
    renewing ??= (async () => {
      emit('tokenWillExpire');
      try {
        current.updateToken(await token(() => deps.tokens.replace(current.token ?? '')));
      } catch (error) {
        emit('error', toSoftphoneError(error));
      } finally {
        renewing = null;
      }
    })();
    return renewing;
  }

  async function register(current: Device) {
    try {
      await current.register();
    } catch (error) {
      if (current === device) emit('error', toSoftphoneError(error));
    }
  }

  /** A new device on a new token, in place of one whose token Twilio refused. */
  async function replaceRefused(refused: Device) {
    replacedRefused = true;
    try {
      const next = await token(() => deps.tokens.replace(refused.token ?? ''));
      if (device !== refused) return;
      refused.removeAllListeners();
      refused.destroy();
      device = null;
      await setUp(next);
    } catch (error) {
      emit('error', toSoftphoneError(error));
    }
  }

  async function setUp(first: string) {
    const { Device } = await loadSdk();
    if (destroyed || device) return;
    const created = new Device(first, deps.options ?? deviceOptions(signallingHost()));
    device = created;
    created.on('registered', () => {
      replacedRefused = false;
      emit('registered');
    });
    created.on('unregistered', () => emit('unregistered'));
    // An error that names a call reaches that call's own listeners; the device reports the rest.
    created.on('error', (error: unknown, call?: Call) => {
      if (call) return;
      const reported = toSoftphoneError(error);
      const refused = typeof reported.code === 'number' && TOKEN_REFUSED.has(reported.code);
      // During a call the device stays: the call goes on, and the next renewal brings a new token.
      if (refused && !replacedRefused && !created.isBusy) void replaceRefused(created);
      else emit('error', reported);
    });
    created.on('tokenWillExpire', () => void renewToken(created));
    created.on('incoming', (call: Call) => emit('incoming', wrapCall(call, 'INCOMING')));
    void register(created);
  }

  return {
    async start() {
      if (device) return;
      await setUp(await token(() => deps.tokens.get()));
    },
    async connect(params) {
      if (!device) throw new SoftphoneError('Device not initialized');
      const call = await device.connect({ params });
      return wrapCall(call, 'OUTGOING', params.To);
    },
    isRegistered: () => device?.state === 'registered',
    keepRegistered(nowMs) {
      const ends = tokenEndsAt(device?.token);
      if (device && ends !== null && ends - nowMs <= BACKGROUND_RENEW_MS) void renewToken(device);
    },
    async reconnect() {
      if (!device) throw new SoftphoneError('Device not initialized');
      device.updateToken(await token(() => deps.tokens.get()));
      if (device.state === 'unregistered') await device.register();
    },
    destroy() {
      destroyed = true;
      device?.destroy();
      device = null;
      listeners.clear();
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener as (...args: never[]) => void);
      return () => {
        set.delete(listener as (...args: never[]) => void);
      };
    },
  };
}
