import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { READY_BANNER_HIDE_MS } from '../../../../../shared/constants';
import { ApiError } from '../../../lib/api-client';
import { useRealtimeEvent } from '../../../lib/realtime/realtime';
import { settingsKeys } from '../../../lib/settings-queries';
import { isFarEndAnswer, isMicrophoneError, type SoftphoneError } from '../device/device-errors';
import type { PhoneCall, Softphone } from '../device/softphone';
import { type CallEvent, type CallInfo, type CallState, IDLE, transition } from './call-manager';
import { type CallOutcome, createEndedCalls, OUTCOME_SHOWN_MS, outcomeOf, outcomeWords } from './call-outcome';

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

/** When the server gives no time to wait after a 429. */
const DEFAULT_RETRY_AFTER_SECONDS = 60;

/** Why calling is unavailable, and when the widget tries again by itself (after a 429). */
export interface Unavailable {
  message: string;
  retryAt: number | null;
}

/**
 * Why the softphone (re)starts: the page opened or Refresh; the company's provider changed (the old
 * token's key is gone); or the provider was disconnected (no start at all: calling hides).
 */
type Start = { n: number; why: 'open' | 'settings_changed' | 'provider_gone' };

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
});

/**
 * The widget's controller: runs the softphone (made by `create`, once per start), feeds the call
 * manager from the device's calls, the agent's clicks and the realtime events, and keeps the device
 * status banner. `tokens` is the store of voice tokens, told when the company's provider changes.
 */
export function useSoftphone(create: () => Softphone, tokens?: { forgetIssuedBefore(changedAtMs: number): void }) {
  const [availability, setAvailability] = useState<Availability>('checking');
  const [unavailable, setUnavailable] = useState<Unavailable | null>(null);
  const [banner, setBanner] = useState<Banner | null>(null);
  const [callState, setCallState] = useState<CallState>(IDLE);
  const [muted, setMuted] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [start, setStart] = useState<Start>({ n: 0, why: 'open' });
  const softphone = useRef<Softphone | null>(null);
  const state = useRef<CallState>(IDLE);
  const current = useRef<PhoneCall | null>(null);
  /** A restart asked for during a call waits for its end. */
  const startAfterCall = useRef<Start['why'] | null>(null);
  const [ended] = useState(createEndedCalls);
  const [outcome, setOutcome] = useState<CallOutcome | null>(null);

  /** Applies an event; answers whether it changed anything. */
  const dispatch = useCallback((event: CallEvent): boolean => {
    const next = transition(state.current, event);
    if (next === state.current) return false;
    state.current = next;
    if (next.status === 'idle') {
      current.current = null;
      setMuted(false);
    }
    setCallState(next);
    return true;
  }, []);

  /** The far end (or Twilio) ended the call: it closes here, saying how it ended. */
  const endedThere = useCallback(
    (event: CallEvent, words?: string) => {
      const before = state.current;
      if (!dispatch(event)) return;
      setOutcome(outcomeOf(before, before.status === 'idle' ? undefined : ended.statusOf(before.call.callSid), words));
    },
    [dispatch, ended],
  );

  /** Events of a call that is no longer ours (a second invite, a call already ended) change nothing. */
  const follow = useCallback(
    (call: PhoneCall) => {
      const mine = (event: CallEvent) => {
        if (current.current === call) dispatch(event);
      };
      const fromFarEnd = (event: CallEvent, words?: string) => {
        if (current.current === call) endedThere(event, words);
      };
      call.on('accept', () => mine({ type: 'accept', at: Date.now(), callSid: call.callSid() }));
      call.on('ringing', () => {
        const callSid = call.callSid();
        mine({ type: 'ringing', callSid });
        // Its end was told before the SDK heard it ring: nothing more will come for it.
        if (callSid && ended.statusOf(callSid) && current.current === call) {
          fromFarEnd({ type: 'call_ended', callSid });
          call.disconnect();
        }
      });
      call.on('disconnect', () => fromFarEnd({ type: 'disconnect' }));
      call.on('cancel', () => fromFarEnd({ type: 'cancel' }));
      call.on('reject', () => mine({ type: 'reject' }));
      call.on('error', (error: SoftphoneError) => {
        if (isFarEndAnswer(error)) {
          fromFarEnd({ type: 'disconnect' }, error.message);
          return;
        }
        // Shown even when the call has already ended: the SDK reports a refused microphone after the disconnect.
        setNotice(error.message);
        // A call not yet connected, or one without a microphone, cannot go on.
        if (isMicrophoneError(error) || state.current.status !== 'active') mine({ type: 'failure' });
      });
    },
    [dispatch, endedThere, ended],
  );

  /** Starts the softphone again (at once, or once the call under way ends). */
  const restart = useCallback((why: Start['why']) => {
    if (state.current.status !== 'idle') {
      startAfterCall.current = why;
      return;
    }
    setStart((s) => ({ n: s.n + 1, why }));
  }, []);
  useEffect(() => {
    const why = startAfterCall.current;
    if (callState.status !== 'idle' || !why) return;
    startAfterCall.current = null;
    setStart((s) => ({ n: s.n + 1, why }));
  }, [callState]);

  // Whether the device said the company has no provider, and whether a provider was connected in this
  // tab since the device started: kept as the events happen, not as rendered, so a provider connected
  // before React renders the device's answer still starts it again.
  const withoutProvider = useRef(false);
  const providerSeen = useRef(false);

  useEffect(() => {
    withoutProvider.current = start.why === 'provider_gone';
    providerSeen.current = false;
    if (start.why === 'provider_gone') {
      setAvailability('no_provider');
      setBanner(null);
      return;
    }
    const phone = create();
    softphone.current = phone;
    let live = true;
    const offs = [
      phone.on('no_provider', () => {
        // The token was asked for before the provider connected in this tab: ask again.
        if (providerSeen.current) return restart('open');
        withoutProvider.current = true;
        setAvailability('no_provider');
      }),
      phone.on('registered', () => setBanner({ state: 'ready', message: 'Ready to make and take calls' })),
      phone.on('unregistered', () =>
        setBanner({ state: 'error', message: 'Device disconnected', detail: 'Lost connection to server. Reconnecting...' }),
      ),
      phone.on('error', (error) => setBanner({ state: 'error', message: `Connection error: ${error.message}` })),
      phone.on('incoming', (call) => {
        if (!dispatch({ type: 'incoming', call: infoOf(call), at: Date.now() })) {
          // One call at a time (docs/product.md §4): the caller goes on ringing for the other agents.
          console.info('Device busy');
          call.ignore();
          return;
        }
        current.current = call;
        setOutcome(null);
        follow(call);
      }),
    ];
    if (start.why === 'settings_changed') {
      // The widget stays as it was while the device starts again; the banner says why.
      setAvailability((a) => (a === 'available' ? a : 'checking'));
      setBanner({ state: 'initializing', message: SETTINGS_CHANGED });
    } else {
      setAvailability('checking');
      setBanner(null);
    }
    phone.start().then(
      () => {
        if (!live) return;
        setAvailability('available');
        setUnavailable(null);
        if (!phone.isRegistered())
          setBanner((b) => b ?? { state: 'initializing', message: 'Connecting to the phone service...' });
      },
      (error: SoftphoneError | ApiError) => {
        if (!live || error.code === 'NO_PROVIDER_CONFIGURED') return;
        console.error('Failed to initialize calling', error);
        setUnavailable(unavailableAfter(error));
        setAvailability('unavailable');
        setBanner(null);
      },
    );
    return () => {
      live = false;
      for (const off of offs) off();
      phone.destroy();
      softphone.current = null;
      current.current = null;
      state.current = IDLE;
      setCallState(IDLE);
    };
  }, [create, dispatch, follow, start, restart]);

  // After a 429 the server said when to come back: the widget does so by itself.
  useEffect(() => {
    const retryAt = availability === 'unavailable' ? unavailable?.retryAt : null;
    if (!retryAt) return;
    const timer = setTimeout(() => restart('open'), Math.max(0, retryAt - Date.now()));
    return () => clearTimeout(timer);
  }, [availability, unavailable, restart]);

  // A provider connected in Settings, in this tab, makes calling possible: start again. Listening from
  // the start (not from the render that hides the widget) hears a provider connected in between.
  const queryClient = useQueryClient();
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        const { queryKey, state } = event.query;
        if (event.type !== 'updated' || queryKey.length !== 1 || queryKey[0] !== settingsKeys.providers[0]) return;
        if (!Array.isArray(state.data) || state.data.length === 0) return;
        if (withoutProvider.current) restart('open');
        else providerSeen.current = true;
      }),
    [queryClient, restart],
  );

  // Twilio connected or disconnected (by anyone of the company): the old token's key is gone, so every
  // device starts again on a new token, or hides with the provider.
  useRealtimeEvent('provider_changed', (event) => {
    tokens?.forgetIssuedBefore(Date.parse(event.data.changedAt));
    restart(event.data.connected ? 'settings_changed' : 'provider_gone');
  });

  // How the last call ended, shown for a few seconds.
  useEffect(() => {
    if (!outcome) return;
    const timer = setTimeout(() => setOutcome(null), OUTCOME_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [outcome]);

  // docs/product.md §4: the ready banner hides after 3 seconds.
  useEffect(() => {
    if (banner?.state !== 'ready') return;
    const timer = setTimeout(() => setBanner(null), READY_BANNER_HIDE_MS);
    return () => clearTimeout(timer);
  }, [banner]);

  // docs/product.md §4: back in the foreground with an unregistered device, register again.
  useEffect(() => {
    if (availability !== 'available') return;
    const onVisible = () => {
      const phone = softphone.current;
      if (document.visibilityState !== 'visible' || !phone || phone.isRegistered()) return;
      setBanner({ state: 'initializing', message: 'Reconnecting...' });
      phone.reconnect().catch((error: unknown) => {
        console.error('Reconnecting the device failed', error);
        setBanner({ state: 'error', message: 'Connection lost. Please refresh the page.' });
      });
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [availability]);

  /** Realtime: another agent took the call, or it ended; this tab lets its ringing or its call go. */
  const fromRealtime = (event: CallEvent) => {
    const before = state.current;
    const call = current.current;
    if (!dispatch(event) || !call) return;
    if (before.status === 'ringing') call.ignore();
    else {
      if (before.status !== 'idle') setOutcome(outcomeOf(before, ended.statusOf(before.call.callSid)));
      call.disconnect();
    }
  };
  useRealtimeEvent('call_answered', (event) => fromRealtime({ type: 'call_answered', callSid: event.data.callSid }));
  useRealtimeEvent('call_ended', (event) => {
    const { callSid, callStatus } = event.data;
    if (callStatus) ended.remember(callSid, callStatus);
    // The SDK may have ended the call first, not knowing why: now it is known.
    setOutcome((shown) => (shown?.callSid === callSid && callStatus ? { ...shown, text: outcomeWords(callStatus) } : shown));
    fromRealtime({ type: 'call_ended', callSid });
  });

  /** Places a call; resolves to an error message for the dialer, or null once the call is under way. */
  const dial = useCallback(
    async (to: string, from: string): Promise<string | null> => {
      const phone = softphone.current;
      if (!phone || availability !== 'available') return DEVICE_NOT_INITIALIZED;
      setNotice(null);
      setOutcome(null);
      let call: PhoneCall;
      try {
        call = await phone.connect({ To: to, From: from });
      } catch (error) {
        console.error('Failed to make call', error);
        return MAKE_CALL_FAILED;
      }
      if (!dispatch({ type: 'dial', call: infoOf(call), at: Date.now() })) {
        call.disconnect();
        return MAKE_CALL_FAILED;
      }
      current.current = call;
      follow(call);
      return null;
    },
    [availability, dispatch, follow],
  );

  return {
    availability,
    unavailable,
    outcome: outcome?.text ?? null,
    banner,
    callState,
    muted,
    notice,
    dismissNotice: () => setNotice(null),
    dial,
    answer: () => {
      setNotice(null);
      if (dispatch({ type: 'answer' })) current.current?.accept();
    },
    reject: () => {
      const call = current.current;
      if (dispatch({ type: 'reject' })) call?.reject();
    },
    hangUp: () => {
      const call = current.current;
      if (dispatch({ type: 'hangup' })) call?.disconnect();
    },
    toggleMute: () => {
      const call = current.current;
      if (!call) return;
      call.mute(!muted);
      setMuted(!muted);
    },
    sendDigit: (digit: string) => current.current?.sendDigits(digit),
    /** 'Calling unavailable' → Refresh: a fresh start. */
    retry: () => restart('open'),
  };
}

export type SoftphoneController = ReturnType<typeof useSoftphone>;
