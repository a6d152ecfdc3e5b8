import * as z from 'zod/mini';
import { httpContract, MANAGERS } from './route';

/**
 * Channel health: whether Twilio still delivers a channel's calls and texts to this
 * deployment, what changed when it does not, and its outbound texts' delivery over the last days.
 */

/**
 * HEALTHY: Twilio would deliver every enabled capability's traffic to this deployment's URLs.
 * DRIFTED: the number (or a Messaging Service it is in) sends traffic somewhere else.
 * NUMBER_GONE: the number is no longer in the Twilio account (released or moved).
 * CREDENTIALS_REFUSED: Twilio refused the company's credentials (revoked key, changed auth token).
 * PROVIDER_UNREACHABLE: Twilio did not answer (or answered an error) when asked.
 * UNCHECKED: never checked yet.
 */
export const CHANNEL_HEALTH_STATUSES = [
  'HEALTHY',
  'DRIFTED',
  'NUMBER_GONE',
  'CREDENTIALS_REFUSED',
  'PROVIDER_UNREACHABLE',
  'UNCHECKED',
] as const;
export type ChannelHealthStatus = (typeof CHANNEL_HEALTH_STATUSES)[number];

/** What a problem is about, in Twilio's names where it is one of Twilio's fields. */
export const HEALTH_PROBLEM_FIELDS = [
  'SmsUrl',
  'SmsMethod',
  'VoiceUrl',
  'VoiceMethod',
  'StatusCallback',
  'SmsApplicationSid',
  'VoiceApplicationSid',
  /** The number is in a Messaging Service that sends its inbound texts to the service's own URL. */
  'MessagingService',
  'PhoneNumber',
  'Credentials',
  'Provider',
] as const;
export type HealthProblemField = (typeof HEALTH_PROBLEM_FIELDS)[number];

export const MessagingServiceRefSchema = z.object({
  sid: z.string(),
  friendlyName: z.string(),
  /** Where the service sends inbound texts (shown without credentials or query); null when unset. */
  inboundRequestUrl: z.nullable(z.string()),
  /** The service's other numbers, which a repair (UseInboundWebhookOnNumber) affects too. */
  otherNumbers: z.number(),
  /**
   * The first MESSAGING_SERVICE_NUMBERS_SHOWN of them (E.164), which the Repair question names before
   * it asks; absent from checks made before they were kept.
   */
  otherPhoneNumbers: z.optional(z.array(z.string())),
});
export type MessagingServiceRef = z.infer<typeof MessagingServiceRefSchema>;

export const HealthProblemSchema = z.object({
  field: z.enum(HEALTH_PROBLEM_FIELDS),
  /** What it should be (our URL, method…); null where nothing applies. */
  expected: z.nullable(z.string()),
  /** What it is now: the foreign URL (without credentials or query), an application or service SID; null when unset. */
  actual: z.nullable(z.string()),
  messagingService: z.optional(MessagingServiceRefSchema),
  /** One sentence a person understands: what is wrong and its effect. */
  message: z.string(),
  /** Whether POST /channels/{id}/repair can put it right. */
  repairable: z.boolean(),
});
export type HealthProblem = z.infer<typeof HealthProblemSchema>;

export const DeliveryErrorSchema = z.object({
  code: z.number(),
  count: z.number(),
  /** What the code means, in words (shared table of Twilio's messaging error codes). */
  message: z.string(),
  /** What to do about it. */
  advice: z.string(),
});
export type DeliveryError = z.infer<typeof DeliveryErrorSchema>;

/**
 * Outbound texts of the last DELIVERY_SUMMARY_DAYS days (today included), from counters: `sent` is
 * every text handed to Twilio; `delivered`, `failed` and `undelivered` count those of them that ended
 * so (the rest are on their way, or sent without a delivery receipt).
 */
export const DeliverySummarySchema = z.object({
  /** Start of the period (ISO, midnight UTC of the first day counted). */
  since: z.string(),
  sent: z.number(),
  delivered: z.number(),
  failed: z.number(),
  undelivered: z.number(),
  errors: z.array(DeliveryErrorSchema),
});
export type DeliverySummary = z.infer<typeof DeliverySummarySchema>;

/** What the channel list carries per channel. */
export const ChannelHealthBriefSchema = z.object({
  status: z.enum(CHANNEL_HEALTH_STATUSES),
  /** When Twilio was last asked (ISO); null when never. */
  checkedAt: z.nullable(z.string()),
});
export type ChannelHealthBrief = z.infer<typeof ChannelHealthBriefSchema>;

export const ChannelHealthSchema = z.object({
  status: z.enum(CHANNEL_HEALTH_STATUSES),
  checkedAt: z.nullable(z.string()),
  problems: z.array(HealthProblemSchema),
  delivery: DeliverySummarySchema,
});
export type ChannelHealth = z.infer<typeof ChannelHealthSchema>;

/** One thing a repair changed in Twilio. */
export const HealthChangeSchema = z.object({
  field: z.enum(HEALTH_PROBLEM_FIELDS),
  from: z.nullable(z.string()),
  to: z.nullable(z.string()),
  /** In words, including what else it affects (a Messaging Service's other numbers). */
  message: z.string(),
});
export type HealthChange = z.infer<typeof HealthChangeSchema>;

export const getChannelHealth = httpContract({
  method: 'GET',
  path: '/api/v1/channels/{id}/health',
  auth: 'user',
  query: z.object({
    /** `true`: ask Twilio now; otherwise the last check is answered, with its time. */
    refresh: z.optional(z.enum(['true', 'false'], 'refresh must be true or false')),
  }),
  response: z.object({ health: ChannelHealthSchema }),
});

/**
 * Repairing a number in a Messaging Service changes the service, and so its other numbers' texts:
 * the repair is refused (400) unless `confirmMessagingService` is true (docs/product.md §10.7). A
 * number in no service needs no body.
 */
export const RepairChannelBodySchema = z.object({
  confirmMessagingService: z.optional(z.boolean('confirmMessagingService must be true or false')),
});

export const repairChannel = httpContract({
  method: 'POST',
  path: '/api/v1/channels/{id}/repair',
  auth: 'user',
  roles: MANAGERS,
  body: RepairChannelBodySchema,
  response: z.object({
    health: ChannelHealthSchema,
    /** What this repair changed; empty when nothing needed it (repairs are idempotent). */
    changes: z.array(HealthChangeSchema),
  }),
});
