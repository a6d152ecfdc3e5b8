import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { READY_BANNER_HIDE_MS } from '../../../../../shared/constants';
import { useRealtimeEvent } from '../../../lib/realtime/realtime';
import { settingsKeys } from '../../../lib/settings-queries';
import { isMicrophoneError, type SoftphoneError } from '../device/device-errors';
import type { PhoneCall, Softphone } from '../device/softphone';
import { type CallEvent, type CallInfo, type CallState, IDLE, transition } from './call-manager';

/** Whether the widget shows at all: not until the token says a provider exists. */
export type Availability = 'checking' | 'no_provider' | 'available' | 'unavailable';

/** SPEC §4 Device status banner; `reconnecting` is the foreground retry, shown as initializing. */
export interface Banner {
  state: 'initializing' | 'ready' | 'error';
  message: string;
  detail?: string;
}

export const INIT_FAILED = 'Failed to initialize calling. Please refresh the page.';
export const MAKE_CALL_FAILED = 'Failed to make call. Please try again.';
export const DEVICE_NOT_INITIALIZED = 'Device not initialized';

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
 * status banner.
 */
export function useSoftphone(create: () => Softphone) {
  const [availability, setAvailability] = useState<Availability>('checking');
  const [banner, setBanner] = useState<Banner | null>(null);
  const [callState, setCallState] = useState<CallState>(IDLE);
  const [muted, setMuted] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const softphone = useRef<Softphone | null>(null);
  const state = useRef<CallState>(IDLE);
  const current = useRef<PhoneCall | null>(null);

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

  /** Events of a call that is no longer ours (a second invite, a call already ended) change nothing. */
  const follow = useCallback(
    (call: PhoneCall) => {
      const mine = (event: CallEvent) => {
        if (current.current === call) dispatch(event);
      };
      call.on('accept', () => mine({ type: 'accept', at: Date.now(), callSid: call.callSid() }));
      call.on('disconnect', () => mine({ type: 'disconnect' }));
      call.on('cancel', () => mine({ type: 'cancel' }));
      call.on('reject', () => mine({ type: 'reject' }));
      call.on('error', (error: SoftphoneError) => {
        // Shown even when the call has already ended: the SDK reports a refused microphone after the disconnect.
        setNotice(error.message);
        // A call not yet connected, or one without a microphone, cannot go on.
        if (isMicrophoneError(error) || state.current.status !== 'active') mine({ type: 'failure' });
      });
    },
    [dispatch],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` restarts the softphone (Refresh)
  useEffect(() => {
    const phone = create();
    softphone.current = phone;
    let live = true;
    const offs = [
      phone.on('no_provider', () => setAvailability('no_provider')),
      phone.on('registered', () => setBanner({ state: 'ready', message: 'Ready to make and take calls' })),
      phone.on('unregistered', () =>
        setBanner({ state: 'error', message: 'Device disconnected', detail: 'Lost connection to server. Reconnecting...' }),
      ),
      phone.on('error', (error) => setBanner({ state: 'error', message: `Connection error: ${error.message}` })),
      phone.on('incoming', (call) => {
        if (!dispatch({ type: 'incoming', call: infoOf(call), at: Date.now() })) {
          // One call at a time (SPEC §4): the caller goes on ringing for the other agents.
          console.info('Device busy');
          call.ignore();
          return;
        }
        current.current = call;
        follow(call);
      }),
    ];
    setAvailability('checking');
    setBanner(null);
    phone.start().then(
      () => {
        if (!live) return;
        setAvailability('available');
        if (!phone.isRegistered())
          setBanner((b) => b ?? { state: 'initializing', message: 'Connecting to the phone service...' });
      },
      (error: SoftphoneError) => {
        if (!live || error.code === 'NO_PROVIDER_CONFIGURED') return;
        console.error('Failed to initialize calling', error);
        setAvailability('unavailable');
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
  }, [create, dispatch, follow, attempt]);

  // A provider connected in Settings, in this tab, makes calling possible: start again.
  const queryClient = useQueryClient();
  useEffect(() => {
    if (availability !== 'no_provider') return;
    return queryClient.getQueryCache().subscribe((event) => {
      const { queryKey, state } = event.query;
      if (event.type !== 'updated' || queryKey.length !== 1 || queryKey[0] !== settingsKeys.providers[0]) return;
      if (Array.isArray(state.data) && state.data.length > 0) setAttempt((n) => n + 1);
    });
  }, [availability, queryClient]);

  // SPEC §4: the ready banner hides after 3 seconds.
  useEffect(() => {
    if (banner?.state !== 'ready') return;
    const timer = setTimeout(() => setBanner(null), READY_BANNER_HIDE_MS);
    return () => clearTimeout(timer);
  }, [banner]);

  // SPEC §4: back in the foreground with an unregistered device, register again.
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
    else call.disconnect();
  };
  useRealtimeEvent('call_answered', (event) => fromRealtime({ type: 'call_answered', callSid: event.data.callSid }));
  useRealtimeEvent('call_ended', (event) => fromRealtime({ type: 'call_ended', callSid: event.data.callSid }));

  /** Places a call; resolves to an error message for the dialer, or null once the call is under way. */
  const dial = useCallback(
    async (to: string, from: string): Promise<string | null> => {
      const phone = softphone.current;
      if (!phone || availability !== 'available') return DEVICE_NOT_INITIALIZED;
      setNotice(null);
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
    retry: () => setAttempt((n) => n + 1),
  };
}

export type SoftphoneController = ReturnType<typeof useSoftphone>;
