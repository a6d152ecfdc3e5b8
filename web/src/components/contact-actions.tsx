import { MessageSquarePlus, Phone } from 'lucide-react';
import { Link } from 'react-router';
import { cn } from '../lib/cn';
import { newMessageHref } from '../lib/contact-actions';
import { usePlaceCall } from '../lib/place-call';

const ACTION =
  'inline-flex min-h-9 items-center gap-1.5 rounded-lg border border-border px-3 text-sm font-medium text-fg transition-colors hover:bg-surface-muted';

/**
 * Text and Call for a contact's number (docs/product.md: New conversation): Text opens New message with
 * the number filled in; Call opens the dialer with it, and while no call can be placed it is disabled and
 * says why. `who` names the contact for screen readers ("Text Ada Lovelace").
 */
export function ContactActions({ phoneNumber, who, className }: { phoneNumber: string; who: string; className?: string }) {
  const placer = usePlaceCall();
  return (
    <div className={cn('flex flex-wrap items-center gap-2', className)}>
      <Link to={newMessageHref(phoneNumber)} aria-label={`Text ${who}`} className={ACTION}>
        <MessageSquarePlus aria-hidden="true" className="size-4" />
        Text
      </Link>
      <button
        type="button"
        aria-label={`Call ${who}`}
        disabled={placer.unavailableReason !== null}
        title={placer.unavailableReason ?? undefined}
        onClick={() => placer.openDialer(phoneNumber)}
        className={cn(ACTION, 'disabled:cursor-not-allowed disabled:opacity-50 disabled:hover:bg-transparent')}
      >
        <Phone aria-hidden="true" className="size-4" />
        Call
      </button>
    </div>
  );
}
