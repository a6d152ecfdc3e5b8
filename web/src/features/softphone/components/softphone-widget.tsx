import { useQueryClient } from '@tanstack/react-query';
import { Phone, PhoneOff, Volume2, X } from 'lucide-react';
import { useCallback, useId, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { IconButton } from '@/components/icon-button';
import { cn } from '@/lib/cn';
import { useFloatingDock } from '@/lib/floating-dock';
import { usePhoneFormat } from '@/lib/phone-display';
import { CALLING_NOT_SET_UP, usePublishCallPlacer } from '@/lib/place-call';
import { usePublishRingingCall } from '@/lib/ringing-call';
import { useUnsavedWork } from '@/lib/unsaved-work';
import { callerIdsQuery, voiceTokens } from '../api/softphone-api';
import type { Availability } from '../controller/softphone-controller';
import { createSoftphone, type Softphone } from '../device/softphone';
import { browserSoundGate, type SoundGate } from '../device/sound-gate';
import type { VoiceTokens } from '../device/voice-tokens';
import type { CallState } from '../hooks/call-manager';
import { useDockFocus } from '../hooks/use-dock-focus';
import { useSoftphone } from '../hooks/use-softphone';
import { ActiveCallPanel } from './active-call-panel';
import { CallOutcomeStatus } from './call-outcome';
import { CallingUnavailable } from './calling-unavailable';
import { DeviceStatusBanner } from './device-status-banner';
import { Dialer } from './dialer';
import { IncomingCallPanel } from './incoming-call-panel';

const realSoftphone = () => createSoftphone({ tokens: voiceTokens });

const CALL_BUTTON = 'inline-flex size-12 items-center justify-center rounded-full shadow-lg transition-colors sm:size-14';

/** What screen readers hear when a call starts ringing: the panel itself is far down the page. */
function useRingingAnnouncement(callState: CallState): string {
  const format = usePhoneFormat();
  if (callState.status !== 'ringing') return '';
  const { from, contactName } = callState.call;
  const number = from ? format(from) : 'an unknown number';
  return `Incoming call from ${contactName ? `${contactName}, ${number}` : number}`;
}

/** Why another screen's call button is disabled now (docs/product.md: Contact timeline); null when it can call. */
export function callingUnavailableReason(
  availability: Availability,
  unavailableMessage: string | undefined,
  callStatus: CallState['status'],
): string | null {
  if (availability === 'checking') return 'Calling is starting…';
  if (availability === 'no_provider') return CALLING_NOT_SET_UP;
  if (availability === 'unavailable') return unavailableMessage ?? 'Calling is unavailable.';
  if (callStatus !== 'idle') return 'You are already on a call.';
  return null;
}

/** Whether the browser blocks the ringtone now (device/sound-gate.ts). */
function useSoundBlocked(gate: SoundGate): boolean {
  return useSyncExternalStore(gate.subscribe, gate.blocked);
}

/**
 * docs/product.md §2 floating call widget, on every signed-in screen: hidden until the token says a provider
 * exists; then the green call button and its dialer, the incoming and active call panels at the
 * bottom right, and the device status banner top right. The corner is a dock whose height the shell
 * keeps free below the page (lib/floating-dock), so it covers no action; the dialer, opened on
 * purpose, floats above it, and so do a call's panels on a wide screen. While the browser blocks
 * sound, a button asks for the click that allows the ringtone (docs/product.md §10.5).
 * `createSoftphone`, `tokens` and `soundGate` are for the component tests.
 */
export function SoftphoneWidget({
  createSoftphone: create = realSoftphone,
  tokens = voiceTokens,
  soundGate,
}: {
  createSoftphone?: () => Softphone;
  tokens?: Pick<VoiceTokens, 'forgetIssuedBefore'>;
  soundGate?: SoundGate;
}) {
  const phone = useSoftphone(create, tokens);
  const gate = useMemo(() => soundGate ?? browserSoundGate(), [soundGate]);
  const soundBlocked = useSoundBlocked(gate);
  const [dialerOpen, setDialerOpen] = useState(false);
  // A contact's Call action: the dialer opens again with its number (lib/contact-actions).
  const [requested, setRequested] = useState<{ number: string; at: number } | null>(null);
  const [cardOpen, setCardOpen] = useState(true);
  const callButton = useRef<HTMLButtonElement>(null);
  const dialerId = useId();
  const { availability, callState } = phone;
  const announcement = useRingingAnnouncement(callState);
  // A reload would end the call: a new release asks first (docs/product.md: A new version while a tab is open).
  useUnsavedWork('call', callState.status !== 'idle');
  const followFocus = useDockFocus(`${availability} ${callState.status} ${cardOpen}`);
  const reserveSpace = useFloatingDock();
  const dockRef = useCallback(
    (element: HTMLDivElement | null) => {
      const undo = [followFocus(element), reserveSpace(element)];
      return () => {
        for (const u of undo) u?.();
      };
    },
    [followFocus, reserveSpace],
  );

  // Refresh starts again: should calling still be unavailable, the card says so again.
  const refresh = () => {
    setCardOpen(true);
    phone.retry();
  };
  const closeDialer = useCallback(() => {
    setDialerOpen(false);
    setRequested(null);
    callButton.current?.focus();
  }, []);
  const dial = useCallback(
    async (to: string, from: string) => {
      const error = await phone.dial(to, from);
      if (!error) {
        setDialerOpen(false);
        setRequested(null);
      }
      return error;
    },
    [phone.dial],
  );

  const openDialerWith = useCallback((number: string) => {
    setRequested((previous) => ({ number, at: (previous?.at ?? 0) + 1 }));
    setDialerOpen(true);
  }, []);
  // Call back from a number the member may not call from (an unassigned line's, another inbox's) would
  // be refused by the server: the dialer opens with the number instead, to pick a caller ID of theirs.
  const queryClient = useQueryClient();
  const dialFromCallerId = useCallback(
    async (to: string, from: string) => {
      const callerIds = await queryClient.fetchQuery(callerIdsQuery()).catch(() => null);
      if (callerIds && !callerIds.some((c) => c.phoneNumber === from)) {
        openDialerWith(to);
        return null;
      }
      return phone.dial(to, from);
    },
    [queryClient, phone.dial, openDialerWith],
  );
  // Call back and a contact's Call elsewhere in the app (lib/place-call) dial through this softphone or
  // open its dialer, or say why they cannot.
  usePublishCallPlacer(
    callingUnavailableReason(availability, phone.unavailable?.message, callState.status),
    dialFromCallerId,
    openDialerWith,
  );

  // The desktop notice of a ringing call answers it, and shows in a visible tab too while sound is blocked.
  usePublishRingingCall(
    callState.status === 'ringing' ? (callState.call.callSid ?? null) : null,
    soundBlocked && availability === 'available',
    phone.answer,
  );

  if (availability === 'checking' || availability === 'no_provider') return null;
  // The Calling unavailable card stays until closed: the page keeps room for it, on any screen.
  const cardShown = availability === 'unavailable' && phone.unavailable !== null && cardOpen;

  return (
    <>
      <DeviceStatusBanner banner={phone.banner} />
      {/* Present before a call rings, so that the ringing is announced. */}
      <p role="status" aria-live="assertive" aria-atomic="true" className="sr-only">
        {announcement}
      </p>
      {/*
        A little smaller and closer to the corner on a phone. On a wide screen the dock keeps the call
        button's height whatever it shows: a call's panels, the notice and the outcome rise over the
        page from there instead of taking their height from it (docs/product.md §2.9), so an incoming
        call never shrinks the page under the agent's hands.
      */}
      <div
        ref={dockRef}
        className={cn(
          'fixed right-3 bottom-3 z-40 flex flex-col items-end gap-3 sm:right-4 sm:bottom-4',
          !cardShown && 'lg:h-14 lg:justify-end',
        )}
      >
        {availability === 'unavailable' && phone.unavailable ? (
          cardOpen ? (
            <CallingUnavailable unavailable={phone.unavailable} onRefresh={refresh} onClose={() => setCardOpen(false)} />
          ) : (
            <button
              type="button"
              data-dock-focus
              aria-label="Calling unavailable"
              aria-expanded={false}
              onClick={() => setCardOpen(true)}
              className={cn(CALL_BUTTON, 'border border-border bg-surface text-danger hover:bg-surface-muted')}
            >
              <PhoneOff aria-hidden="true" className="size-6" />
            </button>
          )
        ) : (
          <>
            {soundBlocked && (
              <button
                type="button"
                onClick={gate.allow}
                className="flex w-[min(20rem,calc(100vw-2rem))] items-center gap-2 rounded-lg border border-warning-border bg-warning-soft px-3 py-2 text-left text-sm font-medium text-warning-fg shadow-md hover:opacity-90"
              >
                <Volume2 aria-hidden="true" className="size-4 shrink-0" />
                Click to enable sound for incoming calls
              </button>
            )}
            <CallOutcomeStatus text={phone.outcome} />
            {phone.notice && (
              <div
                role="alert"
                className="flex w-[min(20rem,calc(100vw-2rem))] items-start gap-2 rounded-lg border border-danger/40 bg-danger-soft px-3 py-2 text-sm text-danger shadow-md"
              >
                <p className="flex-1">{phone.notice}</p>
                <IconButton label="Dismiss" icon={X} onClick={phone.dismissNotice} className="-my-1 size-7" />
              </div>
            )}
            {callState.status === 'ringing' && (
              <IncomingCallPanel
                call={callState.call}
                since={callState.since}
                answering={callState.answering}
                onAnswer={phone.answer}
                onReject={phone.reject}
              />
            )}
            {(callState.status === 'dialing' || callState.status === 'active') && (
              <ActiveCallPanel
                call={callState.call}
                since={callState.status === 'active' ? callState.since : null}
                muted={phone.muted}
                onToggleMute={phone.toggleMute}
                onDigit={phone.sendDigit}
                onEnd={phone.hangUp}
              />
            )}
            {callState.status === 'idle' && (
              <>
                {dialerOpen && (
                  <div className="absolute right-0 bottom-full mb-3">
                    <Dialer
                      key={requested?.at ?? 0}
                      id={dialerId}
                      onDial={dial}
                      onClose={closeDialer}
                      initialNumber={requested?.number}
                    />
                  </div>
                )}
                <button
                  ref={callButton}
                  type="button"
                  data-dock-focus
                  aria-label={dialerOpen ? 'Close dialer' : 'Open dialer'}
                  aria-expanded={dialerOpen}
                  aria-controls={dialerOpen ? dialerId : undefined}
                  onClick={() => setDialerOpen((open) => !open)}
                  className={cn(CALL_BUTTON, 'bg-success text-primary-fg hover:opacity-90')}
                >
                  {dialerOpen ? <X aria-hidden="true" className="size-6" /> : <Phone aria-hidden="true" className="size-6" />}
                </button>
              </>
            )}
          </>
        )}
      </div>
    </>
  );
}
