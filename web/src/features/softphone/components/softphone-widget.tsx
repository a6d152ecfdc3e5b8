import { Phone, X } from 'lucide-react';
import { useCallback, useId, useRef, useState } from 'react';
import { IconButton } from '../../../components/icon-button';
import { cn } from '../../../lib/cn';
import { voiceTokens } from '../api/softphone-api';
import { createSoftphone, type Softphone } from '../device/softphone';
import type { VoiceTokens } from '../device/voice-tokens';
import { useSoftphone } from '../hooks/use-softphone';
import { ActiveCallPanel } from './active-call-panel';
import { CallOutcomeStatus } from './call-outcome';
import { CallingUnavailable } from './calling-unavailable';
import { DeviceStatusBanner } from './device-status-banner';
import { Dialer } from './dialer';
import { IncomingCallPanel } from './incoming-call-panel';

const realSoftphone = () => createSoftphone({ tokens: voiceTokens });

/**
 * SPEC §2 floating call widget, on every signed-in screen: hidden until the token says a provider
 * exists; then the green call button and its dialer, the incoming and active call panels at the
 * bottom right, and the device status banner top right. `createSoftphone` and `tokens` are for the
 * component tests.
 */
export function SoftphoneWidget({
  createSoftphone: create = realSoftphone,
  tokens = voiceTokens,
}: {
  createSoftphone?: () => Softphone;
  tokens?: Pick<VoiceTokens, 'forgetIssuedBefore'>;
}) {
  const phone = useSoftphone(create, tokens);
  const [dialerOpen, setDialerOpen] = useState(false);
  const callButton = useRef<HTMLButtonElement>(null);
  const dialerId = useId();
  const { availability, callState } = phone;

  const closeDialer = useCallback(() => {
    setDialerOpen(false);
    callButton.current?.focus();
  }, []);
  const dial = useCallback(
    async (to: string, from: string) => {
      const error = await phone.dial(to, from);
      if (!error) setDialerOpen(false);
      return error;
    },
    [phone.dial],
  );

  if (availability === 'checking' || availability === 'no_provider') return null;

  return (
    <>
      <DeviceStatusBanner banner={phone.banner} />
      {/* A little smaller and closer to the corner on a phone, so it clears the composer's Send button. */}
      <div className="fixed right-3 bottom-3 z-40 flex flex-col items-end gap-3 sm:right-4 sm:bottom-4">
        {availability === 'unavailable' && phone.unavailable ? (
          <CallingUnavailable unavailable={phone.unavailable} onRefresh={phone.retry} />
        ) : (
          <>
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
                {dialerOpen && <Dialer id={dialerId} onDial={dial} onClose={closeDialer} />}
                <button
                  ref={callButton}
                  type="button"
                  aria-label={dialerOpen ? 'Close dialer' : 'Open dialer'}
                  aria-expanded={dialerOpen}
                  aria-controls={dialerOpen ? dialerId : undefined}
                  onClick={() => setDialerOpen((open) => !open)}
                  className={cn(
                    'inline-flex size-12 items-center justify-center rounded-full shadow-lg transition-colors sm:size-14',
                    'bg-success text-primary-fg hover:opacity-90',
                  )}
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
