import { type AccountRecord, type CallRecord, rfc2822 } from '../model';
import { formattedNumber } from '../phone-numbers';
import { API_VERSION, accountPath } from '../representation';
import { isFinal, secondsBetween } from './call-legs';

/**
 * The Call resource as Twilio's API writes it. `duration` is a string of seconds, empty (null) while
 * the call goes on or when it was never answered; `answered_by` is answering-machine detection's
 * verdict, which the emulator does not make (null, as Twilio without machineDetection).
 * https://www.twilio.com/docs/voice/api/call-resource
 */
export function callResource(account: AccountRecord, call: CallRecord) {
  const uri = `${accountPath(account.sid)}/Calls/${call.sid}`;
  const formatted = (party: string) => (party.startsWith('+') ? formattedNumber(party) : party);
  return {
    account_sid: account.sid,
    answered_by: null,
    api_version: API_VERSION,
    caller_name: null,
    date_created: rfc2822(call.dateCreated),
    date_updated: rfc2822(call.dateUpdated),
    direction: call.direction,
    duration:
      isFinal(call) && call.answeredAt && call.endTime
        ? String(secondsBetween(Date.parse(call.answeredAt), Date.parse(call.endTime)))
        : null,
    end_time: call.endTime ? rfc2822(call.endTime) : null,
    forwarded_from: null,
    from: call.from,
    from_formatted: formatted(call.from),
    group_sid: null,
    parent_call_sid: call.parentCallSid,
    phone_number_sid: call.phoneNumberSid,
    price: null,
    price_unit: 'USD',
    queue_time: '0',
    sid: call.sid,
    start_time: call.startTime ? rfc2822(call.startTime) : null,
    // `initiated` is a status-callback event, not one of the resource's statuses: until it rings a call is queued.
    status: call.status === 'initiated' ? 'queued' : call.status,
    subresource_uris: {
      notifications: `${uri}/Notifications.json`,
      recordings: `${uri}/Recordings.json`,
      events: `${uri}/Events.json`,
    },
    to: call.to,
    to_formatted: formatted(call.to),
    trunk_sid: null,
    uri: `${uri}.json`,
  };
}

/** One leg (or the call itself) for `/_emulator/` views: the resource and everything that happened to it. */
function legView(account: AccountRecord, call: CallRecord) {
  return {
    ...callResource(account, call),
    /** The party that picked up, as named to the answer control (`client:alice`, `+1…`). */
    answeredByParty: call.answeredBy,
    application_sid: call.applicationSid,
    parameters: call.parameters,
    status_callback: call.statusCallback,
    status_callback_method: call.statusCallbackMethod,
    status_callback_events: call.statusCallbackEvents,
    twiml: call.twiml,
    callbacks: call.callbacks,
    said: call.said,
    digits: call.digits,
    errors: call.errors,
  };
}

/** A call with its child legs, oldest first: what `GET /_emulator/calls/{Sid}` and the controls answer. */
export function callView(account: AccountRecord, call: CallRecord) {
  return {
    ...legView(account, call),
    legs: account.calls.filter((c) => c.parentCallSid === call.sid).map((c) => legView(account, c)),
  };
}

/** What the voice controls answer: the call's story, and the recordings its <Record> verbs made. */
export type CallView = ReturnType<typeof callView> & { recordings?: unknown[]; conferences?: unknown[] };
