import type { Clock } from '../clock';
import type { EmulatorEvents } from '../events';
import type { Logger } from '../log';
import {
  type AccountRecord,
  type CallDirection,
  type CallEvent,
  type CallRecord,
  type CallStatus,
  newSid,
  now,
  rfc2822,
  type WebhookMethod,
} from '../model';
import { countryOf } from '../phone-numbers';
import { API_VERSION } from '../representation';
import type { EmulatorStore } from '../store';
import { deliverWebhook } from '../webhooks';

export const FINAL_STATUSES: ReadonlySet<CallStatus> = new Set(['completed', 'busy', 'no-answer', 'failed', 'canceled']);

export const isFinal = (call: CallRecord) => FINAL_STATUSES.has(call.status);

/** The progress event each status belongs to: `in-progress` is `answered`, every end is `completed`. */
function eventOf(status: CallStatus): CallEvent | undefined {
  if (status === 'initiated' || status === 'ringing') return status;
  if (status === 'in-progress') return 'answered';
  if (FINAL_STATUSES.has(status)) return 'completed';
  return undefined;
}

/** Whole seconds from answer to end (to the clock's now while it goes on); 0 for a call never answered. */
export function callDuration(call: CallRecord, clock: Clock): number {
  if (!call.answeredAt) return 0;
  return secondsBetween(Date.parse(call.answeredAt), call.endTime ? Date.parse(call.endTime) : clock.now());
}

export function secondsBetween(from: number, to: number): number {
  return Math.max(0, Math.floor((to - from) / 1000));
}

export interface NewCall {
  parentCallSid?: string;
  direction: CallDirection;
  from: string;
  to: string;
  status: CallStatus;
  phoneNumberSid?: string;
  applicationSid?: string;
  parameters?: Record<string, string>;
  statusCallback?: string;
  statusCallbackMethod?: WebhookMethod;
  statusCallbackEvents?: CallEvent[];
}

/**
 * Call legs: creates calls, moves their status, and posts the status callbacks each one subscribed
 * to. The callbacks of a call and its child legs go out one after another, in the order the statuses
 * changed (as Twilio's arrive when the product answers promptly); the call itself never waits for
 * them. Each carries Twilio's call-progress parameters, SequenceNumber counting that call's callbacks
 * from 0, and CallDuration on `completed`.
 * https://www.twilio.com/docs/voice/api/call-resource#statuscallbackevent
 */
export function callLegs(options: { store: EmulatorStore; events: EmulatorEvents; log: Logger; signal: AbortSignal }) {
  const { store, events, log, signal } = options;
  /** The callbacks still to go out, per call tree (a call and its legs). */
  const queues = new Map<string, Promise<void>>();
  const sequence = new Map<string, number>();

  function create(account: AccountRecord, fields: NewCall): CallRecord {
    const at = now(store.clock);
    const call: CallRecord = {
      sid: newSid('CA'),
      parentCallSid: fields.parentCallSid ?? null,
      direction: fields.direction,
      from: fields.from,
      to: fields.to,
      status: fields.status,
      phoneNumberSid: fields.phoneNumberSid ?? null,
      applicationSid: fields.applicationSid ?? null,
      dateCreated: at,
      dateUpdated: at,
      startTime: at,
      answeredAt: null,
      endTime: null,
      answeredBy: null,
      parameters: fields.parameters ?? {},
      statusCallback: fields.statusCallback ?? '',
      statusCallbackMethod: fields.statusCallbackMethod ?? 'POST',
      statusCallbackEvents: fields.statusCallbackEvents ?? [],
      twiml: [],
      callbacks: [],
      said: [],
      digits: [],
      errors: [],
    };
    store.change(() => account.calls.push(call));
    events.emit('call', account, call);
    return call;
  }

  /** Changes a call's record (never its status: see `setStatus`) and tells the other parts. */
  function change(account: AccountRecord, call: CallRecord, apply: (call: CallRecord) => void) {
    // Stopped, or gone with a reset: the call stays as it was saved.
    if (signal.aborted || !store.findCall(call.sid)) return;
    store.change(() => {
      apply(call);
      call.dateUpdated = now(store.clock);
    });
    events.emit('call', account, call);
  }

  /** Moves a call forward; an ended call stays as it ended. Posts the callback of the status's event. */
  function setStatus(account: AccountRecord, call: CallRecord, status: CallStatus, answeredBy?: string) {
    if (isFinal(call) || call.status === status || signal.aborted || !store.findCall(call.sid)) return;
    change(account, call, (c) => {
      c.status = status;
      if (status === 'in-progress') {
        c.answeredAt = now(store.clock);
        c.answeredBy = answeredBy ?? null;
      }
      if (FINAL_STATUSES.has(status)) c.endTime = now(store.clock);
    });
    const event = eventOf(status);
    if (event && call.statusCallback && call.statusCallbackEvents.includes(event)) post(account, call, event);
  }

  function post(account: AccountRecord, call: CallRecord, event: CallEvent) {
    const sequenceNumber = sequence.get(call.sid) ?? 0;
    sequence.set(call.sid, sequenceNumber + 1);
    const params: Record<string, string> = {
      ...callParams(account, call),
      CallbackSource: 'call-progress-events',
      SequenceNumber: String(sequenceNumber),
      Timestamp: rfc2822(now(store.clock)),
      ...(event === 'completed' ? { CallDuration: String(callDuration(call, store.clock)) } : {}),
    };
    const callStatus = call.status;
    const tree = call.parentCallSid ?? call.sid;
    const next = (queues.get(tree) ?? Promise.resolve())
      .then(async () => {
        if (signal.aborted) return;
        const attempt = await deliverWebhook({
          url: call.statusCallback,
          method: call.statusCallbackMethod,
          params,
          authToken: account.authToken,
          signal,
          lost: store.faults.takeWebhookDrop(account.sid),
          clock: store.clock,
        });
        if (attempt.status === null || attempt.status >= 400)
          log.warn(`status callback ${event} of ${call.sid} to ${attempt.url}: ${attempt.status ?? attempt.body}`);
        change(account, call, (c) => c.callbacks.push({ ...attempt, event, callStatus, params }));
      })
      .catch((error: unknown) =>
        log.error(`status callback of ${call.sid}: ${error instanceof Error ? error.message : String(error)}`),
      );
    queues.set(tree, next);
  }

  return {
    create,
    change,
    setStatus,
    /** Resolves once every callback of the call's tree asked for so far has been answered. */
    async drained(call: CallRecord) {
      const tree = call.parentCallSid ?? call.sid;
      let pending: Promise<void> | undefined;
      while (pending !== queues.get(tree)) {
        pending = queues.get(tree);
        await pending;
      }
    },
    forget() {
      queues.clear();
      sequence.clear();
    },
  };
}

export type CallLegs = ReturnType<typeof callLegs>;

/**
 * The parameters of every voice request about a call: the call, its parties under both names
 * (From/Caller, To/Called) and, for phone numbers, the country (city, state and ZIP are unknown for
 * fictional numbers; Twilio sends them empty then). A leg names its parent.
 * https://www.twilio.com/docs/usage/webhooks/voice-webhooks
 */
export function callParams(account: AccountRecord, call: CallRecord): Record<string, string> {
  const geography = (prefix: string, party: string): Record<string, string> =>
    party.startsWith('+')
      ? {
          [`${prefix}City`]: '',
          [`${prefix}Country`]: countryOf(party),
          [`${prefix}State`]: '',
          [`${prefix}Zip`]: '',
        }
      : {};
  return {
    AccountSid: account.sid,
    ApiVersion: API_VERSION,
    CallSid: call.sid,
    CallStatus: call.status,
    Called: call.to,
    Caller: call.from,
    Direction: call.direction,
    From: call.from,
    To: call.to,
    ...geography('Called', call.to),
    ...geography('Caller', call.from),
    ...geography('From', call.from),
    ...geography('To', call.to),
    ...(call.parentCallSid ? { ParentCallSid: call.parentCallSid } : {}),
    ...(call.applicationSid ? { ApplicationSid: call.applicationSid } : {}),
  };
}
