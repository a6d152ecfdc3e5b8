import type { Call, CallRecording, CallStatus } from '../../shared/contract/calls';
// The schema-free descriptor: call records are read by socket handlers that carry no zod.
import { callRecordingAudio, voicemailAudio } from '../../shared/contract/endpoints/calls';
import { fillPath } from '../../shared/contract/route';
import type { ContactRecord } from '../conversations/records';
import { keys } from '../lib/table';
import { userIdOfClient } from './client-identity';

/**
 * A call as stored, and how its status follows from what Twilio reported. Status callbacks arrive
 * duplicated and out of order, so the record keeps facts that only move forward — each leg's and the
 * call's furthest Twilio status (initiated < ringing < in-progress < an end), the Dial's result — and
 * the Call History status is derived from them. Merging facts is commutative and idempotent: any
 * order and any number of copies of the same callbacks give the same call.
 */

/** Twilio's CallStatus words. https://www.twilio.com/docs/voice/api/call-resource#call-status-values */
const TWILIO_RANK: Readonly<Record<string, number>> = {
  queued: 0,
  initiated: 0,
  ringing: 1,
  'in-progress': 2,
  completed: 3,
  busy: 3,
  'no-answer': 3,
  failed: 3,
  canceled: 3,
};

export const isTwilioCallStatus = (status: string) => status in TWILIO_RANK;
const isEnd = (status: string | undefined) => status !== undefined && TWILIO_RANK[status] === 3;
/** A leg that was picked up: it is in progress or ended `completed` (Twilio's word for an answered call's end). */
const wasAnswered = (status: string | undefined) => status === 'in-progress' || status === 'completed';

export interface CallLeg {
  /** `client:user_…` for a browser, E.164 for a dialled number. */
  party: string;
  status: string;
  durationSeconds?: number;
}

export interface CallRecord {
  /** The table's TTL when the company keeps calls for a while only (functions/company/retention.ts). */
  expiresAt?: number;
  id: string;
  companyId: string;
  direction: 'INBOUND' | 'OUTBOUND';
  providerCallId: string;
  channelId: string;
  channelPhoneNumber: string;
  /** null when the other party is not a phone number (an outbound call to an invalid number). */
  contactId: string | null;
  contactPhoneNumber: string;
  createdAt: string;
  /** Users whose browsers were rung (inbound); the caller (outbound). */
  rungUserIds: string[];
  /** Users who rejected the call from the widget (reject_call). */
  declinedUserIds: string[];
  /** Users who accepted it from the widget (accept_call); Twilio's leg callbacks say who was connected. */
  acceptedUserIds: string[];
  /** The agent who took an inbound call (from its answered leg) or placed an outbound one; the name kept as it was. */
  answeredBy: { id: string; name: string } | null;
  /** Set when the call was decided at once: nobody to ring (NO_ANSWER), an outbound call refused (FAILED). */
  outcome: 'NO_ANSWER' | 'FAILED' | null;
  /** Why an outbound call was refused (FAILED), as the caller heard it; absent on records from before toll-fraud checks. */
  failureReason?: string | null;
  /** Why an inbound call rang nobody (NO_ANSWER at once): NOBODY_AVAILABLE, no member's phone was ready. */
  missedReason?: 'NOBODY_AVAILABLE' | null;
  /** The furthest Twilio status of the call itself, and its CallDuration once ended. */
  twilioStatus: string;
  twilioDurationSeconds: number | null;
  /** Dial legs by CallSid. */
  legs: Record<string, CallLeg>;
  /** What the `<Dial action>` heard, once the Dial ended. */
  dial: { status: string; durationSeconds: number } | null;
  /** Derived by `derive`. */
  callStatus: CallStatus;
  durationSeconds: number;
  endedAt: string | null;
  /** Optimistic concurrency: each write expects the version it read. */
  version: number;
  /** How the channel routed the call when it came in: who hears of its voicemail. Absent before. */
  routing?: { type: 'USER' | 'INBOX' | 'UNASSIGNED'; targetId: string | null };
  /** The caller's message when nobody answered, from Twilio's recording status callback. */
  voicemail?: VoicemailRecord | null;
  /** The channel's routing recorded calls when the call began: it is recorded from its answer (call-recording.ts). */
  recordsCall?: boolean;
  /** The recording of the customer's leg, once started (call-recording.ts). */
  recording?: CallRecordingState | null;
  /**
   * The conference the call runs in once answered (functions/voice/conference.ts); its SID once looked
   * up. Absent on calls from before, and on a call whose move was refused.
   */
  conference?: { name: string; sid: string | null; customerCallSid: string | null } | null;
  /** The agents' legs, oldest first (docs/product.md: Hold); added by `derive` from the answer. */
  agentLegs?: AgentLeg[];
  /** When the customer's current hold began; null when not held. */
  heldSince?: string | null;
  /** Seconds the customer spent on hold in the holds that ended (the current one adds up at its end). */
  holdSeconds?: number;
}

export interface AgentLeg {
  userId: string;
  userName: string;
  answeredAt: string;
  endedAt: string | null;
}

/** A call's recording as stored: Twilio's recording of the customer's leg, fetched with the company's credentials when played. */
export interface CallRecordingState {
  /** The recorded leg: the caller's (inbound), the dialled number's (outbound). */
  legSid: string;
  /** Twilio's, once it answered the start; null until then. */
  recordingSid: string | null;
  /** Twilio's RecordingUrl (no extension), from the recording status callback. */
  recordingUrl: string | null;
  status: CallRecording['status'];
  durationSeconds: number;
  startedAt: string;
}

/** A voicemail as stored: Twilio's recording, fetched with the company's credentials when played. */
export interface VoicemailRecord {
  durationSeconds: number;
  recordingSid: string;
  /** Twilio's RecordingUrl (no extension); only its path is followed (twilio/rest-client.ts twilioApiPath). */
  recordingUrl: string;
  createdAt: string;
  listenedAt: string | null;
}

/** One status report about the call or one of its legs (a status callback, or the Dial's action). */
export type CallFact =
  | { kind: 'call'; status: string; durationSeconds?: number }
  | { kind: 'leg'; legSid: string; party: string; status: string; durationSeconds?: number }
  | { kind: 'dial'; status: string; durationSeconds: number };

const furthest = (stored: string | undefined, reported: string) => {
  if (stored === undefined) return reported;
  // The first end reported stays: a late `completed` never turns a `busy` leg around.
  if (isEnd(stored)) return stored;
  return (TWILIO_RANK[reported] ?? -1) > (TWILIO_RANK[stored] ?? -1) ? reported : stored;
};

/** The record with one more fact; unchanged facts give an equal record (derive decides the rest). */
export function withFact(record: CallRecord, fact: CallFact): CallRecord {
  if (!isTwilioCallStatus(fact.status)) return record;
  if (fact.kind === 'call') {
    const status = furthest(record.twilioStatus, fact.status);
    const ended = isEnd(fact.status) && fact.durationSeconds !== undefined;
    return {
      ...record,
      twilioStatus: status,
      twilioDurationSeconds: record.twilioDurationSeconds ?? (ended ? (fact.durationSeconds as number) : null),
    };
  }
  if (fact.kind === 'leg') {
    const before = record.legs[fact.legSid];
    const leg: CallLeg = { party: before?.party ?? fact.party, status: furthest(before?.status, fact.status) };
    const duration = before?.durationSeconds ?? (isEnd(fact.status) ? fact.durationSeconds : undefined);
    if (duration !== undefined) leg.durationSeconds = duration;
    return { ...record, legs: { ...record.legs, [fact.legSid]: leg } };
  }
  return { ...record, dial: record.dial ?? { status: fact.status, durationSeconds: fact.durationSeconds } };
}

/** The leg that was picked up; a ring-all has at most one. */
export function answeredLeg(record: Pick<CallRecord, 'legs'>): CallLeg | undefined {
  return Object.values(record.legs).find((leg) => wasAnswered(leg.status));
}

/** Twilio's end of an unanswered attempt, in Call History's words. */
function unanswered(status: string | undefined, direction: CallRecord['direction']): CallStatus {
  if (status === 'failed') return 'FAILED';
  // An outbound call the other side declined is busy; an inbound one that all agents declined was missed.
  if (status === 'busy' && direction === 'OUTBOUND') return 'BUSY';
  return 'NO_ANSWER';
}

/** Call History's status, duration and end, from the facts. */
export function derive(record: CallRecord, now: string): CallRecord {
  const leg = answeredLeg(record);
  const callEnded = isEnd(record.twilioStatus) || record.dial !== null;
  let status: CallStatus;
  let ended: boolean;
  if (record.outcome) {
    status = record.outcome;
    ended = true;
  } else if (leg) {
    ended = callEnded || leg.status === 'completed';
    status = ended ? 'COMPLETED' : 'IN_PROGRESS';
  } else {
    // An outbound call rings one number: its leg's end is the call's outcome.
    const dialled = record.direction === 'OUTBOUND' ? Object.values(record.legs).find((l) => isEnd(l.status)) : undefined;
    ended = callEnded || dialled !== undefined;
    status = ended ? unanswered(dialled?.status ?? record.dial?.status ?? record.twilioStatus, record.direction) : 'RINGING';
  }
  const durationSeconds =
    status === 'COMPLETED' ? (leg?.durationSeconds ?? record.dial?.durationSeconds ?? record.twilioDurationSeconds ?? 0) : 0;
  const endedAt = ended ? (record.endedAt ?? now) : null;
  return { ...record, callStatus: status, durationSeconds, endedAt, ...withLegsAndHold(record, status, endedAt, now) };
}

/**
 * The answering agent's leg from the answer (the caller's own, outbound) to the end; a hold still
 * under way when the call ends counts up to the end (docs/product.md: Hold).
 */
function withLegsAndHold(
  record: CallRecord,
  status: CallStatus,
  endedAt: string | null,
  now: string,
): Pick<CallRecord, 'agentLegs' | 'heldSince' | 'holdSeconds'> | Record<string, never> {
  const answered = status === 'IN_PROGRESS' || status === 'COMPLETED';
  let agentLegs = record.agentLegs ?? [];
  if (answered && record.answeredBy && agentLegs.length === 0)
    agentLegs = [{ userId: record.answeredBy.id, userName: record.answeredBy.name, answeredAt: now, endedAt: null }];
  if (endedAt) agentLegs = agentLegs.map((l) => (l.endedAt ? l : { ...l, endedAt }));
  const changes: Pick<CallRecord, 'agentLegs' | 'heldSince' | 'holdSeconds'> = {};
  if (agentLegs !== (record.agentLegs ?? []) && agentLegs.length) changes.agentLegs = agentLegs;
  if (endedAt && record.heldSince) {
    changes.holdSeconds = (record.holdSeconds ?? 0) + secondsBetween(record.heldSince, endedAt);
    changes.heldSince = null;
  }
  return changes;
}

export const secondsBetween = (from: string, to: string) => Math.max(0, Math.floor((Date.parse(to) - Date.parse(from)) / 1000));

/** The user a ring-all leg rang, from its `client:` party. */
export const userOfLeg = (leg: CallLeg) => userIdOfClient(leg.party);

/** Call History's words for why a call rang nobody. */
export const MISSED_REASONS = { NOBODY_AVAILABLE: 'No one was available' } as const;

/** The API's view; the contact as it is now (null id once deleted). */
export function toCall(record: CallRecord, contact: Pick<ContactRecord, 'id' | 'name'> | undefined): Call {
  return {
    voicemail: record.voicemail
      ? {
          durationSeconds: record.voicemail.durationSeconds,
          url: fillPath(voicemailAudio.path, { id: record.id }),
          createdAt: record.voicemail.createdAt,
          listened: record.voicemail.listenedAt !== null,
        }
      : null,
    id: record.id,
    direction: record.direction,
    callStatus: record.callStatus,
    contact: contact
      ? { id: contact.id, name: contact.name ?? '', phoneNumber: record.contactPhoneNumber }
      : { id: null, name: '', phoneNumber: record.contactPhoneNumber },
    channel: { id: record.channelId, phoneNumber: record.channelPhoneNumber },
    durationSeconds: record.durationSeconds,
    createdAt: record.createdAt,
    recordingUrl: null,
    providerCallId: record.providerCallId,
    answeredBy: record.answeredBy,
    legs: (record.agentLegs ?? []).map((leg) => ({
      ...leg,
      durationSeconds: leg.endedAt ? secondsBetween(leg.answeredAt, leg.endedAt) : 0,
    })),
    held: Boolean(record.heldSince),
    holdSeconds: record.holdSeconds ?? 0,
    ...(record.failureReason ? { failureReason: record.failureReason } : {}),
    ...(record.missedReason ? { missedReason: MISSED_REASONS[record.missedReason] } : {}),
    ...(record.recording ? { recording: toRecording(record.providerCallId, record.recording) } : {}),
  };
}

/** The API's view of a call's recording: its audio's route once Twilio completed it. */
export function toRecording(callSid: string, recording: CallRecordingState): CallRecording {
  return {
    status: recording.status,
    paused: recording.status === 'PAUSED',
    durationSeconds: recording.durationSeconds,
    url: recording.status === 'COMPLETED' ? fillPath(callRecordingAudio.path, { callId: callSid }) : null,
  };
}

/**
 * Who placed or answered the call: they see it whatever its channel routes to now (shared/visibility.ts
 * `handledBy`). An outbound call's `answeredBy` is its caller; an inbound one's the agent who took it.
 */
export const handledByOf = (call: Pick<CallRecord, 'answeredBy'>): string[] => (call.answeredBy ? [call.answeredBy.id] : []);

/** The handled-call entry of the call's `answeredBy` (keys.callHandled), if it has one. */
export function handledItem(record: CallRecord) {
  if (!record.answeredBy) return undefined;
  return {
    ...keys.callHandled(record.companyId, record.answeredBy.id, record.createdAt, record.id),
    entity: 'CALL_HANDLED',
    callId: record.id,
    createdAt: record.createdAt,
    ...(record.expiresAt ? { expiresAt: record.expiresAt } : {}),
  };
}

/** The stored item: the record with its key and its index entries (status, voicemail, contact, channel; rewritten by every write). */
export function callItem(record: CallRecord) {
  // The keys last: a record read back carries the index entry of its status then.
  return {
    ...record,
    ...keys.call(record.companyId, record.createdAt, record.id),
    ...keys.callByStatus(record.companyId, record.callStatus, record.createdAt, record.id),
    ...(record.voicemail ? keys.callWithVoicemail(record.companyId, record.createdAt, record.id) : {}),
    ...(record.contactId ? keys.callByContact(record.companyId, record.contactId, record.createdAt, record.id) : {}),
    // An outbound call refused for its caller ID has no channel: its caller sees it as theirs (handledItem).
    ...(record.channelId ? keys.callByChannel(record.companyId, record.channelId, record.createdAt, record.id) : {}),
    entity: 'CALL',
  };
}
