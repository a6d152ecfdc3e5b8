import * as z from 'zod/mini';
import { TWILIO_ACCOUNT_SID, TWILIO_ACCOUNT_SID_FORMAT } from '../constants';
import { ChannelHealthBriefSchema } from './channel-health';
import { requiredText } from './fields';
import { httpContract, MANAGERS } from './route';

/** Providers, channels, inboxes and users (docs/product.md §3, §7.7 and §7.3). */

export const PROVIDER_TYPES = ['TWILIO'] as const;
export const CHANNEL_TYPES = ['PHONE', 'EMAIL'] as const;
export const CHANNEL_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export const ROUTING_TYPES = ['UNASSIGNED', 'INBOX', 'USER'] as const;
export const STRATEGY_TYPES = ['RING_ALL'] as const;

const id = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .check(z.minLength(1, `${label} is required`), z.maxLength(100, `${label} is invalid`));

export const ProviderSchema = z.object({
  id: z.string(),
  type: z.enum(PROVIDER_TYPES),
  accountSid: z.string(),
  channelCount: z.number(),
  createdAt: z.string(),
});
export type Provider = z.infer<typeof ProviderSchema>;

export const CapabilitiesSchema = z.object({ voice: z.boolean(), sms: z.boolean(), mms: z.boolean() });
export type Capabilities = z.infer<typeof CapabilitiesSchema>;

/** A TwiML application a number's calls or texts go to; its name when Twilio could tell it. */
export const NumberApplicationSchema = z.object({ sid: z.string(), friendlyName: z.nullable(z.string()) });
export type NumberApplication = z.infer<typeof NumberApplicationSchema>;

export const ProviderNumberSchema = z.object({
  sid: z.string(),
  phoneNumber: z.string(),
  friendlyName: z.string(),
  imported: z.boolean(),
  /** A channel of this company once, now inactive (its provider was disconnected): importing reactivates it. */
  previouslyImported: z.boolean(),
  /** Already a channel of another company (the same account connected twice): it cannot be imported here. */
  inUseElsewhere: z.boolean(),
  capabilities: CapabilitiesSchema,
  /**
   * Where the number sends calls and texts now, outside Switchboard: importing takes over the ticked
   * capabilities. URLs without credentials, query or fragment; null when unset, already Switchboard's,
   * or the number is not importable here (imported, another company's).
   */
  voiceUrl: z.nullable(z.string()),
  smsUrl: z.nullable(z.string()),
  voiceApplication: z.nullable(NumberApplicationSchema),
  smsApplication: z.nullable(NumberApplicationSchema),
});
export type ProviderNumber = z.infer<typeof ProviderNumberSchema>;

export const ChannelSchema = z.object({
  id: z.string(),
  type: z.enum(CHANNEL_TYPES),
  identifier: z.string(),
  /** The provider's name for the number ('Main line'); null for e-mail and numbers imported before names were kept. */
  friendlyName: z.nullable(z.string()),
  status: z.enum(CHANNEL_STATUSES),
  capabilities: CapabilitiesSchema,
  routingType: z.enum(ROUTING_TYPES),
  routingTargetId: z.nullable(z.string()),
  routingTarget: z.nullable(z.object({ name: z.string() })),
  providerId: z.nullable(z.string()),
  createdAt: z.string(),
  /** The last health check's outcome (GET /channels/{id}/health has the details). */
  health: ChannelHealthBriefSchema,
});
export type Channel = z.infer<typeof ChannelSchema>;

export const TeamUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.string(),
  avatarUrl: z.nullable(z.string()),
  lastActiveAt: z.nullable(z.string()),
  /** A tab of theirs has a registered phone: calls ring them ("Phone ready", docs/product.md §10.5). */
  phoneReady: z.optional(z.boolean()),
});
export type TeamUser = z.infer<typeof TeamUserSchema>;

export const InboxMemberSchema = z.object({
  id: z.string(),
  userId: z.string(),
  user: z.object({ name: z.string(), email: z.string() }),
  /** As the team list's: calls to the inbox ring this member's phone now (docs/product.md §10.5). */
  phoneReady: z.optional(z.boolean()),
});
export type InboxMember = z.infer<typeof InboxMemberSchema>;

export const InboxSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  memberCount: z.number(),
  channelCount: z.number(),
  createdAt: z.string(),
  /** Calls to and from the inbox's numbers are recorded, after the company's disclosure (docs/product.md: Call recording). */
  recordCalls: z.boolean(),
});
export type Inbox = z.infer<typeof InboxSchema>;
export const InboxDetailSchema = z.extend(InboxSchema, { members: z.array(InboxMemberSchema) });
export type InboxDetail = z.infer<typeof InboxDetailSchema>;

export const RoutingStrategySchema = z.object({
  channelType: z.literal('PHONE'),
  strategyType: z.enum(STRATEGY_TYPES),
  config: z.record(z.string(), z.unknown()),
});
export type RoutingStrategy = z.infer<typeof RoutingStrategySchema>;

// Providers

export const listProviders = httpContract({
  method: 'GET',
  path: '/api/v1/providers',
  auth: 'user',
  response: z.object({ providers: z.array(ProviderSchema) }),
});

export const connectTwilio = httpContract({
  method: 'POST',
  path: '/api/v1/providers/twilio',
  auth: 'user',
  roles: MANAGERS,
  body: z.object({
    accountSid: z
      .string({ error: 'Account SID is required' })
      .check(z.trim(), z.minLength(1, 'Account SID is required'), z.regex(TWILIO_ACCOUNT_SID, TWILIO_ACCOUNT_SID_FORMAT)),
    authToken: z
      .string({ error: 'Auth token is required' })
      .check(z.trim(), z.minLength(1, 'Auth token is required'), z.maxLength(200, 'Auth token is invalid')),
  }),
  response: z.object({ provider: ProviderSchema }),
});

export const disconnectProvider = httpContract({
  method: 'DELETE',
  path: '/api/v1/providers/{id}',
  auth: 'user',
  roles: MANAGERS,
  response: z.object({ provider: ProviderSchema }),
});

/** Managers only, as importing is: listing asks the company's Twilio account, for the import dialog alone. */
export const availableNumbers = httpContract({
  method: 'GET',
  path: '/api/v1/providers/{id}/available-numbers',
  auth: 'user',
  roles: MANAGERS,
  response: z.object({ numbers: z.array(ProviderNumberSchema) }),
});

export const importChannels = httpContract({
  method: 'POST',
  path: '/api/v1/providers/{id}/import-channels',
  auth: 'user',
  roles: MANAGERS,
  body: z.object({
    numbers: z
      .array(
        z.object({
          sid: id('Number sid'),
          phoneNumber: id('Phone number'),
          capabilities: z.object({ voice: z.boolean(), sms: z.boolean() }),
        }),
      )
      .check(z.minLength(1, 'Select at least one number'), z.maxLength(100, 'Import at most 100 numbers at a time')),
  }),
  response: z.object({
    channels: z.array(ChannelSchema),
    importedCount: z.number(),
    /** Numbers left out, each with why (another company took it meanwhile); the rest are imported. */
    skipped: z.array(z.object({ phoneNumber: z.string(), reason: z.string() })),
  }),
});

// Channels

export const listChannels = httpContract({
  method: 'GET',
  path: '/api/v1/channels',
  auth: 'user',
  response: z.object({ channels: z.array(ChannelSchema) }),
});

export const updateChannelRouting = httpContract({
  method: 'PATCH',
  path: '/api/v1/channels/{id}/routing',
  auth: 'user',
  roles: MANAGERS,
  body: z.object({
    routingType: z.enum(ROUTING_TYPES, 'Routing type must be UNASSIGNED, INBOX or USER'),
    routingTargetId: z.optional(z.nullable(z.string().check(z.maxLength(100, 'Routing target is invalid')))),
  }),
  response: z.object({ channel: ChannelSchema }),
});

// Inboxes

export const listInboxes = httpContract({
  method: 'GET',
  path: '/api/v1/inboxes',
  auth: 'user',
  response: z.object({ inboxes: z.array(InboxSchema) }),
});

export const createInbox = httpContract({
  method: 'POST',
  path: '/api/v1/inboxes',
  auth: 'user',
  roles: MANAGERS,
  body: z.object({
    name: requiredText('Inbox name', 100),
    description: z.optional(
      z.nullable(
        z.string('Description must be text').check(z.trim(), z.maxLength(500, 'Description must be at most 500 characters')),
      ),
    ),
  }),
  response: z.object({ inbox: InboxSchema }),
});

export const getInbox = httpContract({
  method: 'GET',
  path: '/api/v1/inboxes/{id}',
  auth: 'user',
  response: z.object({ inbox: InboxDetailSchema }),
});

export const deleteInbox = httpContract({
  method: 'DELETE',
  path: '/api/v1/inboxes/{id}',
  auth: 'user',
  roles: MANAGERS,
  response: z.object({ inbox: InboxSchema }),
});

export const getInboxRouting = httpContract({
  method: 'GET',
  path: '/api/v1/inboxes/{id}/routing',
  auth: 'user',
  response: z.object({ strategies: z.array(RoutingStrategySchema) }),
});

/**
 * A strategy's settings (Ring All Users has none): a flat map of short values, so what is stored
 * always fits an item (DynamoDB refuses maps nested past 32 levels and numbers past 1e125).
 */
const strategyConfig = z
  .record(
    z.string().check(z.minLength(1), z.maxLength(64)),
    z.union(
      [
        z.string().check(z.maxLength(500, 'config values must be at most 500 characters')),
        z.boolean(),
        z
          .number()
          .check(
            z.minimum(-1e15, 'config numbers must be within ±10^15'),
            z.maximum(1e15, 'config numbers must be within ±10^15'),
          ),
      ],
      { error: 'config values must be text, a number or true/false' },
    ),
    {
      error: (issue) => (issue.code === 'invalid_key' ? 'config keys must be 1 to 64 characters' : 'config must be an object'),
    },
  )
  .check(z.refine((config) => Object.keys(config).length <= 20, 'config has at most 20 settings'));

export const saveInboxRouting = httpContract({
  method: 'POST',
  path: '/api/v1/inboxes/{id}/routing',
  auth: 'user',
  roles: MANAGERS,
  body: z.object({
    channelType: z.literal('PHONE', 'Channel type must be PHONE'),
    strategyType: z.enum(STRATEGY_TYPES, 'Only Ring All Users is available; Send to Voicemail is coming soon'),
    config: z.optional(strategyConfig),
  }),
  response: z.object({ strategy: RoutingStrategySchema }),
});

export const addInboxMember = httpContract({
  method: 'POST',
  path: '/api/v1/inboxes/{id}/members',
  auth: 'user',
  roles: MANAGERS,
  body: z.object({ userId: id('User') }),
  response: z.object({ member: InboxMemberSchema }),
});

export const removeInboxMember = httpContract({
  method: 'DELETE',
  path: '/api/v1/inboxes/{id}/members/{userId}',
  auth: 'user',
  roles: MANAGERS,
  response: z.object({ member: InboxMemberSchema }),
});

// Users

export const listUsers = httpContract({
  method: 'GET',
  path: '/api/v1/users',
  auth: 'user',
  response: z.object({ users: z.array(TeamUserSchema) }),
});

/** Record calls of the inbox's numbers, or stop (docs/product.md: Call recording). */
export const setInboxRecording = httpContract({
  method: 'PATCH',
  path: '/api/v1/inboxes/{id}/recording',
  auth: 'user',
  roles: MANAGERS,
  body: z.object({ enabled: z.boolean('enabled must be true or false') }),
  response: z.object({ inbox: InboxSchema }),
});
