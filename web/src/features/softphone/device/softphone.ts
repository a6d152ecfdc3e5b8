import type { Call, Device } from '@twilio/voice-sdk';
import type { CallDirection } from '../hooks/call-manager';
import { SoftphoneError, toSoftphoneError } from './device-errors';
import { type DeviceOptions, deviceOptions, signallingHost } from './device-options';

/** One call of the device, as the widget uses it (SPEC §7 Telephony device operations). */
export interface PhoneCall {
  readonly direction: CallDirection;
  /** The call as the realtime events name it (see CallInfo.callSid); null until Twilio has given one. */
  callSid(): string | null;
  readonly from: string | null;
  readonly to: string | null;
  readonly contactName: string | null;
  accept(): void;
  reject(): void;
  /** Stops ringing here without declining for the other agents (someone else took the call). */
  ignore(): void;
  disconnect(): void;
  mute(muted: boolean): void;
  sendDigits(digits: string): void;
  on(event: 'accept' | 'disconnect' | 'cancel' | 'reject', listener: () => void): void;
  on(event: 'error', listener: (error: SoftphoneError) => void): void;
}

/** SPEC §4 Softphone wrapper events. */
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
  /** An outbound call: To in E.164, From the chosen caller ID (SPEC §3 Outbound call parameters). */
  connect(params: { To: string; From: string }): Promise<PhoneCall>;
  isRegistered(): boolean;
  /** A fresh token and a new registration, for a device found unregistered (back in the foreground). */
  reconnect(): Promise<void>;
  destroy(): void;
  on<K extends keyof SoftphoneEvents>(event: K, listener: (...args: SoftphoneEvents[K]) => void): () => void;
}

export interface SoftphoneDependencies {
  /** POST /voice/token; an ApiError coded PROVIDER_NOT_FOUND when the company has no provider. */
  fetchToken: () => Promise<string>;
  /** The SDK, loaded only when needed: it is the largest part of the app. */
  loadSdk?: () => Promise<{ Device: typeof Device }>;
  options?: DeviceOptions;
}

const isNoProvider = (error: unknown) =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === 'PROVIDER_NOT_FOUND';

/** The SDK's Call as a PhoneCall. */
function wrapCall(call: Call, direction: CallDirection, to?: string): PhoneCall {
  const custom = call.customParameters;
  return {
    direction,
    // The ring-all TwiML passes the caller's leg as parentCallSid (functions/voice/twiml.ts).
    callSid: () => custom.get('parentCallSid') ?? call.parameters.CallSid ?? null,
    from: direction === 'INCOMING' ? (custom.get('callerNumber') ?? call.parameters.From ?? null) : null,
    to: direction === 'INCOMING' ? (custom.get('calledNumber') ?? call.parameters.To ?? null) : (to ?? null),
    contactName: custom.get('contactName') ?? null,
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
 * The wrapper over the Voice SDK's Device (SPEC §4): registers once, renews its token before it
 * expires, holds at most one call, and reports SDK failures as SoftphoneErrors in SPEC's words.
 */
export function createSoftphone(deps: SoftphoneDependencies): Softphone {
  const loadSdk = deps.loadSdk ?? (() => import('@twilio/voice-sdk'));
  const listeners = new Map<keyof SoftphoneEvents, Set<(...args: never[]) => void>>();
  let device: Device | null = null;
  let destroyed = false;

  function emit<K extends keyof SoftphoneEvents>(event: K, ...args: SoftphoneEvents[K]) {
    for (const listener of listeners.get(event) ?? []) (listener as (...a: SoftphoneEvents[K]) => void)(...args);
  }

  async function token(): Promise<string> {
    try {
      return await deps.fetchToken();
    } catch (error) {
      if (!isNoProvider(error)) throw error;
      emit('no_provider');
      throw new SoftphoneError('No provider configured', 'NO_PROVIDER_CONFIGURED');
    }
  }

  async function renewToken() {
    emit('tokenWillExpire');
    try {
      device?.updateToken(await token());
    } catch (error) {
      emit('error', toSoftphoneError(error));
    }
  }

  async function register(current: Device) {
    try {
      await current.register();
    } catch (error) {
      emit('error', toSoftphoneError(error));
    }
  }

  return {
    async start() {
      if (device) return;
      const first = await token();
      const { Device } = await loadSdk();
      if (destroyed || device) return;
      const created = new Device(first, deps.options ?? deviceOptions(signallingHost()));
      device = created;
      created.on('registered', () => emit('registered'));
      created.on('unregistered', () => emit('unregistered'));
      // An error that names a call reaches that call's own listeners; the device reports the rest.
      created.on('error', (error: unknown, call?: Call) => {
        if (!call) emit('error', toSoftphoneError(error));
      });
      created.on('tokenWillExpire', () => void renewToken());
      created.on('incoming', (call: Call) => emit('incoming', wrapCall(call, 'INCOMING')));
      void register(created);
    },
    async connect(params) {
      if (!device) throw new SoftphoneError('Device not initialized');
      const call = await device.connect({ params });
      return wrapCall(call, 'OUTGOING', params.To);
    },
    isRegistered: () => device?.state === 'registered',
    async reconnect() {
      if (!device) throw new SoftphoneError('Device not initialized');
      device.updateToken(await token());
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
