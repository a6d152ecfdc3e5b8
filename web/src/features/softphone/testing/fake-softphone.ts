import type { SoftphoneError } from '../device/device-errors';
import type { PhoneCall, Softphone, SoftphoneEvents } from '../device/softphone';

/**
 * Stand-ins for the device wrapper and its calls that behave as the real ones do when nothing fails
 * (jsdom has no WebRTC; test/e2e/softphone.test.ts runs the real SDK). Shared by the controller's
 * tests and the widget's: a component test delivers their events inside React's `act`.
 */

/** Runs the delivery of a fake's event: `act` in a component test, so React renders what it changed. */
export type Deliver = (deliver: () => void) => void;
const direct: Deliver = (deliver) => deliver();

type CallEventName = 'accept' | 'ringing' | 'disconnect' | 'cancel' | 'reject' | 'error';

export class FakeCall implements PhoneCall {
  readonly listeners = new Map<CallEventName, ((error?: SoftphoneError) => void)[]>();
  readonly digits: string[] = [];
  readonly mutes: boolean[] = [];
  readonly actions: string[] = [];
  deliver: Deliver = direct;
  sid: string | null;
  constructor(
    readonly direction: PhoneCall['direction'],
    readonly from: string | null,
    readonly to: string | null,
    sid: string | null = null,
    readonly contactName: string | null = null,
  ) {
    this.sid = sid;
  }
  callSid = () => this.sid;
  accept = () => this.actions.push('accept');
  reject = () => this.actions.push('reject');
  ignore = () => this.actions.push('ignore');
  disconnect = () => this.actions.push('disconnect');
  mute = (muted: boolean) => this.mutes.push(muted);
  sendDigits = (digits: string) => this.digits.push(digits);
  on(event: 'accept' | 'ringing' | 'disconnect' | 'cancel' | 'reject', listener: () => void): void;
  on(event: 'error', listener: (error: SoftphoneError) => void): void;
  on(event: CallEventName, listener: (error: SoftphoneError) => void) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener as (error?: SoftphoneError) => void]);
  }
  emit(event: CallEventName, error?: SoftphoneError) {
    this.deliver(() => {
      for (const l of this.listeners.get(event) ?? []) l(error);
    });
  }
}

export interface FakeSoftphoneOptions {
  start?: () => Promise<void>;
  reconnect?: () => Promise<void>;
  keepRegistered?: (nowMs: number) => void;
  connect?: (params: { To: string; From: string }) => Promise<PhoneCall>;
  deliver?: Deliver;
}

export type FakeSoftphone = Softphone & {
  emit<K extends keyof SoftphoneEvents>(event: K, ...args: SoftphoneEvents[K]): void;
  /** The calls placed, in order. */
  connects: { To: string; From: string }[];
  calls: FakeCall[];
  destroyed: number;
  setRegistered(value: boolean): void;
};

export function fakeSoftphone(options: FakeSoftphoneOptions = {}): FakeSoftphone {
  const listeners = new Map<keyof SoftphoneEvents, ((...args: never[]) => void)[]>();
  const deliver = options.deliver ?? direct;
  let registered = false;
  const phone: FakeSoftphone = {
    start: options.start ?? (() => Promise.resolve()),
    async connect(params) {
      phone.connects.push(params);
      if (options.connect) return options.connect(params);
      const call = new FakeCall('OUTGOING', null, params.To);
      call.deliver = deliver;
      phone.calls.push(call);
      return call;
    },
    isRegistered: () => registered,
    reconnect: options.reconnect ?? (() => Promise.resolve()),
    keepRegistered: options.keepRegistered ?? (() => {}),
    destroy: () => {
      phone.destroyed++;
    },
    on(event, listener) {
      const l = listener as (...args: never[]) => void;
      listeners.set(event, [...(listeners.get(event) ?? []), l]);
      return () =>
        listeners.set(
          event,
          (listeners.get(event) ?? []).filter((other) => other !== l),
        );
    },
    emit(event, ...args) {
      if (event === 'registered') registered = true;
      if (event === 'unregistered') registered = false;
      deliver(() => {
        for (const l of listeners.get(event) ?? []) (l as (...a: typeof args) => void)(...args);
      });
    },
    connects: [],
    calls: [],
    destroyed: 0,
    setRegistered: (value) => {
      registered = value;
    },
  };
  return phone;
}
