import type { AccountRecord, CallRecord, ConferenceEvent, WebhookMethod } from '../model';

/** How a participant enters: `<Dial><Conference>`'s attributes, or the Participants resource's parameters. */
export interface JoinOptions {
  name: string;
  label: string | null;
  muted: boolean;
  /** `true`, `false`, `onEnter` or `onExit`: who hears the beep as this participant comes and goes. */
  beep: string;
  startConferenceOnEnter: boolean;
  endConferenceOnExit: boolean;
  /** TwiML played while the conference waits to start; without it, the wait music. */
  waitUrl?: string;
  waitMethod: WebhookMethod;
  statusCallback?: string;
  statusCallbackMethod: WebhookMethod;
  statusCallbackEvents: ConferenceEvent[];
}

/** Why a participant left: hung up or redirected (`left`), removed through the API (`kicked`), or the conference ended. */
export type Departure = 'left' | 'kicked' | 'ended';

const CONFERENCE_EVENTS: ReadonlySet<string> = new Set(['start', 'end', 'join', 'leave', 'mute', 'hold']);

export const conferenceEvents = (value: string | null | undefined): ConferenceEvent[] =>
  (value ?? '').split(/[\s,]+/).filter((e): e is ConferenceEvent => CONFERENCE_EVENTS.has(e));

/** Twilio's booleans in forms and attributes: `true` or `false`, any case. */
export const isTrue = (value: string | null | undefined) => value?.toLowerCase() === 'true';

/** What the TwiML interpreter's `<Dial><Conference>` does with the conferences (conferences.ts). */
export interface ConferenceSeat {
  join(account: AccountRecord, call: CallRecord, options: JoinOptions): void;
  leave(account: AccountRecord, callSid: string, departure: Departure): void;
  /** Whether the call is in a conference now (not ringing into one, not gone). */
  isIn(account: AccountRecord, callSid: string): boolean;
}
