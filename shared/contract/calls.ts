import * as z from 'zod/mini';
import { CALLS_LIST_LIMIT } from '../constants';
import { pageLimit } from './fields';
import { httpContract } from './route';

/** Call History (docs/product.md §2 Call History, §3 Call, §7 calls). Written by the voice webhooks, read by the page. */

export const CALL_DIRECTIONS = ['INBOUND', 'OUTBOUND'] as const;
export const CALL_STATUSES = ['COMPLETED', 'FAILED', 'NO_ANSWER', 'BUSY', 'RINGING', 'IN_PROGRESS'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

/**
 * A message a caller left when nobody answered: `url` is Switchboard's route
 * (`voicemailAudio`); `listened` turns true the first time anyone in the company plays it.
 */
export const VoicemailSchema = z.object({
  durationSeconds: z.number(),
  url: z.string(),
  createdAt: z.string(),
  listened: z.boolean(),
});
export type Voicemail = z.infer<typeof VoicemailSchema>;

export const CALL_RECORDING_STATUSES = ['RECORDING', 'PAUSED', 'COMPLETED', 'FAILED'] as const;

/**
 * The call's recording (docs/product.md: Call recording), present when the call was recorded:
 * RECORDING or PAUSED while the call goes on, then COMPLETED with its length (and `url`, Switchboard's
 * route, `callRecordingAudio`) or FAILED when Twilio made none.
 */
export const CallRecordingSchema = z.object({
  status: z.enum(CALL_RECORDING_STATUSES),
  paused: z.boolean(),
  durationSeconds: z.number(),
  url: z.nullable(z.string()),
});
export type CallRecording = z.infer<typeof CallRecordingSchema>;
/**
 * One agent's part of a call (docs/product.md: Hold): who was on it, from when to when. A call
 * answered has one; transfers add more.
 */
export const CallLegSchema = z.object({
  userId: z.string(),
  userName: z.string(),
  answeredAt: z.string(),
  endedAt: z.nullable(z.string()),
  durationSeconds: z.number(),
});
export type CallLeg = z.infer<typeof CallLegSchema>;

export const CallSchema = z.object({
  id: z.string(),
  direction: z.enum(CALL_DIRECTIONS),
  callStatus: z.enum(CALL_STATUSES),
  /** name is '' when nobody named the contact; id null once the contact was deleted. */
  contact: z.object({ id: z.nullable(z.string()), name: z.string(), phoneNumber: z.string() }),
  channel: z.object({ id: z.string(), phoneNumber: z.string() }),
  durationSeconds: z.number(),
  createdAt: z.string(),
  recordingUrl: z.nullable(z.string()),
  providerCallId: z.string(),
  /** The agent who took an inbound call or placed an outbound one. */
  answeredBy: z.nullable(z.object({ id: z.string(), name: z.string() })),
  /** Why an outbound call was refused (FAILED before it rang: docs/security.md: Toll fraud), as the caller heard it. */
  failureReason: z.optional(z.string()),
  /**
   * Why an inbound call rang nobody and went straight to voicemail, in Call History's words: "No one
   * was available" when none of the members it would ring had a phone ready (docs/product.md §10.5).
   */
  missedReason: z.optional(z.string()),
  /** The caller's voicemail (a NO_ANSWER inbound call); null when none was left. */
  voicemail: z.nullable(VoicemailSchema),
  recording: z.optional(CallRecordingSchema),
  /** The agents' legs, oldest first (docs/product.md: Hold). */
  legs: z.array(CallLegSchema),
  /** Whether the customer is on hold now, and for how long they were held in all (docs/product.md: Hold). */
  held: z.boolean(),
  holdSeconds: z.number(),
});
export type Call = z.infer<typeof CallSchema>;

const isoDate = (label: string) =>
  z.string().check(z.refine((value) => !Number.isNaN(Date.parse(value)), `${label} must be a date (ISO 8601)`));

export const listCalls = httpContract({
  method: 'GET',
  path: '/api/v1/calls',
  auth: 'user',
  query: z.object({
    /** Empty means every status (the page's "All"). */
    status: z.optional(z.enum(['', ...CALL_STATUSES], { error: `status must be one of ${CALL_STATUSES.join(', ')}` })),
    dateFrom: z.optional(z.union([z.literal(''), isoDate('dateFrom')])),
    dateTo: z.optional(z.union([z.literal(''), isoDate('dateTo')])),
    limit: pageLimit(CALLS_LIST_LIMIT, CALLS_LIST_LIMIT),
    /** `true`: only calls with a voicemail (Call History's "Voicemail" filter, the Dashboard's count). */
    voicemail: z.optional(z.enum(['true', 'false'], { error: 'voicemail must be true or false' })),
  }),
  response: z.object({ calls: z.array(CallSchema) }),
});

/**
 * A voicemail's recording, streamed from Twilio with the company's credentials (audio/wav
 * or audio/mpeg); another company's call, or a call without one: 404. Marks it listened.
 */
export const voicemailAudio = httpContract({
  method: 'GET',
  path: '/api/v1/calls/{id}/voicemail',
  auth: 'user',
  binary: true,
});

/**
 * Pauses or resumes the recording of a call under way (a card number read aloud), by a member on the
 * call. `{callId}` is the call's CallSid, as the widget learns it (docs/product.md: Call recording).
 * Another company's call, or one the member is not on: 404; a call not being recorded: 409.
 */
export const pauseCallRecording = httpContract({
  method: 'PATCH',
  path: '/api/v1/calls/{callId}/recording',
  auth: 'user',
  body: z.object({ paused: z.boolean('paused must be true or false') }),
  response: z.object({ recording: CallRecordingSchema }),
});

/** A call's recording, streamed from Twilio with the company's credentials, as the voicemail is. */
export const callRecordingAudio = httpContract({
  method: 'GET',
  path: '/api/v1/calls/{callId}/recording',
  auth: 'user',
  binary: true,
});
