import { READY_BANNER_HIDE_MS } from '@shared/constants';
import type { CallStatus } from '@shared/contract/calls';
import { ApiError } from '@/lib/api-client';
import { isFarEndAnswer, isMicrophoneError, type SoftphoneError } from '../device/device-errors';
import type { PhoneCall, Softphone } from '../device/softphone';
import { type CallEvent, type CallInfo, type CallState, IDLE, transition } from '../hooks/call-manager';
import { type CallOutcome, createEndedCalls, OUTCOME_SHOWN_MS, outcomeOf, outcomeWords } from '../hooks/call-outcome';

/** Whether the widget shows at all: not until the token says a provider exists. */
export type Availability = 'checking' | 'no_provider' | 'available' | 'unavailable';

/** docs/product.md §4 Device status banner; `reconnecting` is the foreground retry, shown as initializing. */
export interface Banner {
  state: 'initializing' | 'ready' | 'error';
  message: string;
  detail?: string;
}

export const INIT_FAILED = 'Failed to initialize calling. Please refresh the page.';
export const SETTINGS_CHANGED = 'Calling settings changed. Reconnecting...';
export const MAKE_CALL_FAILED = 'Failed to make call. Please try again.';
export const DEVICE_NOT_INITIALIZED = 'Device not initialized';

/**
 * A lapsed registration is taken up again by itself, foreground or not (docs/product.md §10.5): first
 * after a moment (the SDK's own reconnect may bring it back), then less often.
 */
export const RECOVER_DELAYS_MS = [2_000, 5_000, 15_000, 30_000, 60_000] as const;

/** When the server gives no time to wait after a 429. */
const DEFAULT_RETRY_AFTER_SECONDS = 60;

/** Why calling is unavailable, and when the widget tries again by itself (after a 429). */
export interface Unavailable {
  message: string;
  retryAt: number | null;
}

/** What the widget shows; a new object only when something in it changed. */
export interface SoftphoneSnapshot {
  readonly availability: Availability;
  readonly unavailable: Unavailable | null;
  readonly banner: Banner | null;
  readonly callState: CallState;
  readonly muted: boolean;
  /** An error of the call, until dismissed or the next call. */
  readonly notice: string | null;
  /** docs/product.md §2.9 Outcome: how the last call ended, for OUTCOME_SHOWN_MS. */
  readonly outcome: string | null;
  /** The device is registered: calls ring this tab (reported to the server, docs/product.md §10.5). */
  readonly registered: boolean;
}

/**
 * Why the softphone (re)starts: the page opened or Refresh; the company's provider changed (the old
 * token's key is gone); or the provider was disconnected (no start at all: calling hides).
 */
export type StartReason = 'open' | 'settings_changed' | 'provider_gone';

export interface SoftphoneControllerDependencies {
  /** Makes the softphone, once per start. */
  create: () => Softphone;
  /** The store of voice tokens, told when the company's provider changes. */
  tokens?: { forgetIssuedBefore(changedAtMs: number): void };
}

type State = Omit<SoftphoneSnapshot, 'outcome'> & { outcome: CallOutcome | null };

const READY: Banner = { state: 'ready', message: 'Ready to make and take calls' };

function unavailableAfter(error: unknown): Unavailable {
  if (!(error instanceof ApiError) || error.status !== 429) return { message: INIT_FAILED, retryAt: null };
  const seconds = Number(error.details?.retryAfterSeconds);
  const wait = Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_RETRY_AFTER_SECONDS;
  // A second more, so the server's window has surely turned.
  return { message: error.message, retryAt: Date.now() + (wait + 1) * 1000 };
}

const infoOf = (call: PhoneCall): CallInfo => ({
  direction: call.direction,
  callSid: call.callSid(),
  from: call.from,
  to: call.to,
  contactName: call.contactName,
  ...(call.recorded ? { recorded: true } : {}),
});

/**
 * The widget's controller, without React: runs the softphone (made by `create`, once per start),
 * feeds the call manager (`transition`) from the device's calls, the agent's actions and the realtime
 * events, keeps the device status banner and the timers of docs/product.md §2.9 and §4. The React
 * side tells it what only React hears (`providersConnected`, `callAnswered`, `callEnded`,
 * `providerChanged`, `foreground`) and renders `getSnapshot()`. Listeners hear once per change,
 * after the whole of an event or action has been applied.
 */
export function createSoftphoneController({ create, tokens }: SoftphoneControllerDependencies) {
  let state: State = {
    availability: 'checking',
    unavailable: null,
    banner: null,
    callState: IDLE,
    muted: false,
    notice: null,
    outcome: null,
    registered: false,
  };
  let snapshot: SoftphoneSnapshot = { ...state, outcome: null };
  let snapshotOf = state;
  const listeners = new Set<() => void>();

  let running = false;
  /** The reason of the last start, for a start again after `stop` (React StrictMode mounts twice). */
  let why: StartReason = 'open';
  let softphone: Softphone | null = null;
  /** Detaches the running start: its listeners, and its answers that come later. */
  let endStart: (() => void) | null = null;
  let current: PhoneCall | null = null;
  /** A restart asked for during a call waits for its end. */
  let startAfterCall: StartReason | null = null;
  // Whether the device said the company has no provider, and whether a provider was connected in this
  // tab since the device started: a provider connected while the token is asked for starts it again.
  let withoutProvider = false;
  let providerSeen = false;
  const ended = createEndedCalls();
  /** Attempts to take a lapsed registration up again since it lapsed. */
  let recoveries = 0;
  /** An attempt to register again is due (recoverSoon). */
  let recovering = false;
  const timers = { banner: undefined, outcome: undefined, retry: undefined, recover: undefined } as Record<
    'banner' | 'outcome' | 'retry' | 'recover',
    ReturnType<typeof setTimeout> | undefined
  >;

  let depth = 0;
  /** Applies `change` as one step: a restart that waited for the call runs, and listeners hear once. */
  function step<T>(change: () => T): T {
    depth++;
    try {
      return change();
    } finally {
      if (--depth === 0) settle();
    }
  }

  function settle() {
    if (running && startAfterCall && state.callState.status === 'idle') {
      const next = startAfterCall;
      startAfterCall = null;
      step(() => begin(next));
      return;
    }
    if (snapshotOf === state) return;
    snapshotOf = state;
    snapshot = { ...state, outcome: state.outcome?.text ?? null };
    for (const listener of [...listeners]) listener();
  }

  function set(patch: Partial<State>) {
    const before = state;
    if ((Object.keys(patch) as (keyof State)[]).every((key) => Object.is(patch[key], before[key]))) return;
    state = { ...before, ...patch };
    armTimers(before);
  }

  function timer(name: keyof typeof timers, ms: number | null, fire: () => void) {
    clearTimeout(timers[name]);
    timers[name] = ms === null ? undefined : setTimeout(() => step(fire), Math.max(0, ms));
  }

  /** The timers follow what is shown: each starts over when its value changes. */
  function armTimers(before: State | null) {
    const { banner, outcome, availability, unavailable } = state;
    // docs/product.md §4 Device status banner: the ready banner hides after 3 seconds.
    if (banner !== before?.banner)
      timer('banner', banner?.state === 'ready' ? READY_BANNER_HIDE_MS : null, () => set({ banner: null }));
    if (outcome !== before?.outcome) timer('outcome', outcome ? OUTCOME_SHOWN_MS : null, () => set({ outcome: null }));
    // After a 429 the server said when to come back: the widget does so by itself.
    if (availability !== before?.availability || unavailable !== before?.unavailable) {
      const retryAt = availability === 'unavailable' ? unavailable?.retryAt : null;
      timer('retry', retryAt ? retryAt - Date.now() : null, () => restart('open'));
    }
  }

  /** Applies an event; answers whether it changed anything. */
  function dispatch(event: CallEvent): boolean {
    const next = transition(state.callState, event);
    if (next === state.callState) return false;
    if (next.status === 'idle') {
      current = null;
      set({ callState: next, muted: false });
    } else set({ callState: next });
    return true;
  }

  /**
   * A call the server refused (its realtime `call_ended` carries the reason) says "Call failed" and why,
   * as a notice that stays until dismissed: Twilio answers it with a spoken apology, so to the device it
   * is a call that connected and ended (docs/product.md §2.9 Outcome).
   */
  function withReason(outcome: CallOutcome | null, callSid: string | null): Partial<State> {
    const reason = ended.endOf(callSid)?.failureReason;
    if (!reason || !callSid) return { outcome };
    return { outcome: { text: outcomeWords('FAILED'), callSid }, notice: reason };
  }

  /** The far end (or Twilio) ended the call: it closes here, saying how it ended. */
  function endedThere(event: CallEvent, words?: string) {
    const before = state.callState;
    if (!dispatch(event)) return;
    if (before.status === 'idle') return set({ outcome: outcomeOf(before, undefined, words) });
    const { callSid } = before.call;
    set(withReason(outcomeOf(before, ended.statusOf(callSid), words), callSid));
  }

  /** Its end was told before the device knew the call's CallSid: nothing more will come for it. */
  function endIfToldAlready(call: PhoneCall) {
    const callSid = call.callSid();
    if (callSid && ended.statusOf(callSid) && current === call) {
      endedThere({ type: 'call_ended', callSid });
      call.disconnect();
    }
  }

  /** Events of a call that is no longer ours (a second invite, a call already ended) change nothing. */
  function follow(call: PhoneCall) {
    const mine = (event: CallEvent) => {
      if (current === call) dispatch(event);
    };
    const fromFarEnd = (event: CallEvent, words?: string) => {
      if (current === call) endedThere(event, words);
    };
    call.on('accept', () =>
      step(() => {
        mine({ type: 'accept', at: Date.now(), callSid: call.callSid() });
        // A refused call is answered by its apology, after the server told its end.
        endIfToldAlready(call);
      }),
    );
    call.on('ringing', () =>
      step(() => {
        mine({ type: 'ringing', callSid: call.callSid() });
        endIfToldAlready(call);
      }),
    );
    call.on('disconnect', () => step(() => fromFarEnd({ type: 'disconnect' })));
    call.on('cancel', () => step(() => fromFarEnd({ type: 'cancel' })));
    call.on('reject', () => step(() => mine({ type: 'reject' })));
    call.on('error', (error: SoftphoneError) =>
      step(() => {
        if (isFarEndAnswer(error)) return fromFarEnd({ type: 'disconnect' }, error.message);
        // Shown even when the call has already ended: the SDK reports a refused microphone after the disconnect.
        set({ notice: error.message });
        // A call not yet connected, or one without a microphone, cannot go on.
        if (isMicrophoneError(error) || state.callState.status !== 'active') mine({ type: 'failure' });
      }),
    );
  }

  /** Registers a lapsed device again after the next of RECOVER_DELAYS_MS, until it is registered. */
  function recoverSoon() {
    const delay = RECOVER_DELAYS_MS[Math.min(recoveries, RECOVER_DELAYS_MS.length - 1)] ?? 60_000;
    recovering = true;
    timer('recover', delay, () => {
      recovering = false;
      const phone = softphone;
      if (state.availability !== 'available' || !phone || phone.isRegistered()) return;
      recoveries++;
      phone.reconnect().catch((error: unknown) =>
        step(() => {
          console.error('Registering the device again failed', error);
          if (phone === softphone && !phone.isRegistered()) recoverSoon();
        }),
      );
    });
  }

  /**
   * A device that failed and is not registered (its first registration refused, a reconnect that
   * failed) rings nothing, though it never lapsed: it is taken up again as a lapsed one is, unless an
   * attempt is already due (docs/product.md §10.5 Phone ready).
   */
  function recoverIfUnregistered() {
    if (!recovering && softphone && !softphone.isRegistered()) recoverSoon();
  }

  /** Lets the running softphone go; the widget has no call. */
  function end() {
    timer('recover', null, () => {});
    recoveries = 0;
    recovering = false;
    endStart?.();
    endStart = null;
    softphone?.destroy();
    softphone = null;
    current = null;
    set({ callState: IDLE, muted: false, registered: false });
  }

  function begin(reason: StartReason) {
    end();
    why = reason;
    withoutProvider = reason === 'provider_gone';
    providerSeen = false;
    if (reason === 'provider_gone') return set({ availability: 'no_provider', banner: null });
    const phone = create();
    softphone = phone;
    let live = true;
    // Only the running start's phone speaks, even in a delivery under way when a listener restarted it.
    const on: Softphone['on'] = (event, listener) =>
      phone.on(event, (...args) => {
        if (live) step(() => listener(...args));
      });
    const offs = [
      on('no_provider', () => {
        // The token was asked for before the provider connected in this tab: ask again.
        if (providerSeen) return restart('open');
        withoutProvider = true;
        set({ availability: 'no_provider' });
      }),
      on('registered', () => {
        recoveries = 0;
        recovering = false;
        timer('recover', null, () => {});
        set({ banner: READY, registered: true });
      }),
      // A lapsed registration (a lost signalling connection, a token that ended in a hidden tab): said
      // in the tab, and taken up again without a reload (docs/product.md §10.5).
      on('unregistered', () => {
        set({
          banner: { state: 'error', message: 'Device disconnected', detail: 'Lost connection to server. Reconnecting...' },
          registered: false,
        });
        recoverSoon();
      }),
      on('error', (error) => {
        set({ banner: { state: 'error', message: `Connection error: ${error.message}` } });
        recoverIfUnregistered();
      }),
      on('incoming', (call) => {
        if (!dispatch({ type: 'incoming', call: infoOf(call), at: Date.now() })) {
          // One call at a time (docs/product.md §4 Call manager): the caller goes on ringing for the other agents.
          console.info('Device busy');
          call.ignore();
          return;
        }
        current = call;
        set({ outcome: null });
        follow(call);
      }),
    ];
    endStart = () => {
      live = false;
      for (const off of offs) off();
    };
    if (reason === 'settings_changed') {
      // The widget stays as it was while the device starts again; the banner says why.
      set({
        availability: state.availability === 'available' ? 'available' : 'checking',
        banner: { state: 'initializing', message: SETTINGS_CHANGED },
      });
    } else set({ availability: 'checking', banner: null });
    phone.start().then(
      () =>
        step(() => {
          if (!live) return;
          set({ availability: 'available', unavailable: null });
          if (!phone.isRegistered())
            set({ banner: state.banner ?? { state: 'initializing', message: 'Connecting to the phone service...' } });
        }),
      (error: SoftphoneError | ApiError) =>
        step(() => {
          if (!live || error.code === 'NO_PROVIDER_CONFIGURED') return;
          console.error('Failed to initialize calling', error);
          set({ unavailable: unavailableAfter(error), availability: 'unavailable', banner: null });
        }),
    );
  }

  /** Starts the softphone again (at once, or once the call under way ends). */
  function restart(reason: StartReason) {
    if (!running) {
      why = reason;
      return;
    }
    if (state.callState.status !== 'idle') startAfterCall = reason;
    else begin(reason);
  }

  /** Realtime: another agent took the call, or it ended; this tab lets its ringing or its call go. */
  function fromRealtime(event: CallEvent) {
    const before = state.callState;
    const call = current;
    if (!dispatch(event) || !call) return;
    if (before.status === 'ringing') call.ignore();
    else {
      if (before.status !== 'idle') set(withReason(outcomeOf(before, ended.statusOf(before.call.callSid)), before.call.callSid));
      call.disconnect();
    }
  }

  /** Places a call; resolves to an error message for the dialer, or null once the call is under way. */
  async function dial(to: string, from: string): Promise<string | null> {
    const phone = softphone;
    if (!phone || state.availability !== 'available') return DEVICE_NOT_INITIALIZED;
    step(() => set({ notice: null, outcome: null }));
    let call: PhoneCall;
    try {
      call = await phone.connect({ To: to, From: from });
    } catch (error) {
      console.error('Failed to make call', error);
      return MAKE_CALL_FAILED;
    }
    return step(() => {
      if (!dispatch({ type: 'dial', call: infoOf(call), at: Date.now() })) {
        call.disconnect();
        return MAKE_CALL_FAILED;
      }
      current = call;
      follow(call);
      return null;
    });
  }

  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => snapshot,

    /** Starts the softphone (for the reason of the last start, the page's opening at first). */
    start() {
      if (running) return;
      running = true;
      step(() => {
        armTimers(null);
        begin(startAfterCall ?? why);
        startAfterCall = null;
      });
    },
    /** Lets the softphone go and stops the timers (the widget unmounts). */
    stop() {
      if (!running) return;
      running = false;
      step(() => {
        end();
        for (const name of Object.keys(timers) as (keyof typeof timers)[]) timer(name, null, () => {});
      });
    },

    /** A provider was connected in Settings, in this tab: calling may now be possible. */
    providersConnected() {
      step(() => {
        if (withoutProvider) restart('open');
        else providerSeen = true;
      });
    },
    /**
     * Realtime provider_changed: Twilio was connected or disconnected (by anyone of the company). The
     * old token's key is gone, so the device starts again on a new token, or hides with the provider.
     */
    providerChanged({ connected, changedAt }: { connected: boolean; changedAt: string }) {
      step(() => {
        tokens?.forgetIssuedBefore(Date.parse(changedAt));
        restart(connected ? 'settings_changed' : 'provider_gone');
      });
    },
    /** Realtime call_answered. */
    callAnswered(callSid: string) {
      step(() => fromRealtime({ type: 'call_answered', callSid }));
    },
    /** Realtime call_ended, with the call's final Call History status and, for a refused call, why. */
    callEnded(callSid: string, callStatus?: CallStatus, failureReason?: string) {
      step(() => {
        if (callStatus) ended.remember(callSid, failureReason ? { status: callStatus, failureReason } : { status: callStatus });
        // The SDK may have ended the call first, not knowing why: now it is known.
        const shown = state.outcome;
        if (shown?.callSid === callSid && callStatus) set(withReason({ ...shown, text: outcomeWords(callStatus) }, callSid));
        fromRealtime({ type: 'call_ended', callSid });
      });
    },
    /** A hidden tab's tick (its timers run late): the token is renewed before the registration could lapse with it. */
    background() {
      softphone?.keepRegistered(Date.now());
    },
    /** docs/product.md §4 Voice device: back in the foreground with an unregistered device, register again. */
    foreground() {
      step(() => {
        const phone = softphone;
        if (state.availability !== 'available' || !phone || phone.isRegistered()) return;
        set({ banner: { state: 'initializing', message: 'Reconnecting...' } });
        phone.reconnect().catch((error: unknown) =>
          step(() => {
            console.error('Reconnecting the device failed', error);
            if (phone !== softphone) return;
            set({ banner: { state: 'error', message: 'Connection lost. Please refresh the page.' } });
            // Said as the SPEC words it, yet no reload is needed: the tab goes on trying by itself.
            recoverIfUnregistered();
          }),
        );
      });
    },

    dial,
    answer() {
      step(() => {
        set({ notice: null });
        if (dispatch({ type: 'answer' })) current?.accept();
      });
    },
    reject() {
      step(() => {
        const call = current;
        if (dispatch({ type: 'reject' })) call?.reject();
      });
    },
    hangUp() {
      step(() => {
        const call = current;
        if (dispatch({ type: 'hangup' })) call?.disconnect();
      });
    },
    toggleMute() {
      step(() => {
        const call = current;
        if (!call) return;
        call.mute(!state.muted);
        set({ muted: !state.muted });
      });
    },
    sendDigit: (digit: string) => current?.sendDigits(digit),
    /** 'Calling unavailable' → Refresh: a fresh start. */
    retry: () => step(() => restart('open')),
    dismissNotice: () => step(() => set({ notice: null })),
  };
}

export type SoftphoneControllerApi = ReturnType<typeof createSoftphoneController>;
