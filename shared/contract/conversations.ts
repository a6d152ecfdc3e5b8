import * as z from 'zod/mini';
import {
  CONVERSATION_PAGE_SIZE,
  CONVERSATION_STATUS_FILTERS,
  MAX_MESSAGE_MEDIA,
  MAX_NOTE_LENGTH,
  MAX_PICTURE_BYTES,
  MAX_PICTURES_PER_TEXT,
  PICTURE_TYPES,
} from '../constants';
import { MEDIA_KINDS } from '../media-kinds';
import { PICTURE_BLOCKS } from '../picture-block';
import { MAX_MESSAGE_LENGTH } from '../sms-segments';
import { pageLimit } from './fields';
import { httpContract } from './route';

/** SMS conversations (docs/product.md §2 Conversations, §3 Conversation and Message, §7 Conversations). */

export const CONVERSATION_STATUSES = ['OPEN', 'CLOSED'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];
export type ConversationStatusFilter = (typeof CONVERSATION_STATUS_FILTERS)[number];

export const MESSAGE_DIRECTIONS = ['INBOUND', 'OUTBOUND'] as const;
/**
 * RECEIVED for inbound; an outbound message follows Twilio: QUEUED (stored, not yet accepted),
 * SENDING, SENT, DELIVERED, or the terminal UNDELIVERED / FAILED (also: Twilio refused it).
 */
export const MESSAGE_STATUSES = ['RECEIVED', 'QUEUED', 'SENDING', 'SENT', 'DELIVERED', 'UNDELIVERED', 'FAILED'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Newest messages a thread opens with; older ones come by `before`. */
export const THREAD_PAGE_SIZE = 50;
export const MAX_CONVERSATION_PAGE_SIZE = 100;

export const SmsDetailsSchema = z.object({
  /** Twilio's own status word (queued, sending, sent, delivered, undelivered, failed, received). */
  providerStatus: z.nullable(z.string()),
  /** Twilio's MessageSid; null until Twilio accepted the message. */
  providerMessageId: z.nullable(z.string()),
  segments: z.number(),
  errorCode: z.nullable(z.number()),
  errorMessage: z.nullable(z.string()),
});
export type SmsDetails = z.infer<typeof SmsDetailsSchema>;

/**
 * SMS: a text to or from the contact. NOTE: an internal note of the team, never sent to
 * Twilio: direction OUTBOUND and status SENT (so readers that predate notes never take it for the
 * customer's), `sentBy` its author, `smsMessage` empty (no SIDs, 0 segments).
 */
export const MESSAGE_TYPES = ['SMS', 'NOTE'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** A member as conversations name them (assignee, note author, mention). */
export const MemberRefSchema = z.object({ id: z.string(), name: z.string() });
export type MemberRef = z.infer<typeof MemberRefSchema>;

/**
 * A picture (or other file) of an MMS: `url` is Switchboard's own route (`messageMedia`), which
 * fetches a received one from Twilio with the company's credentials and sends a sent one's reader to a
 * short-lived URL of the private bucket (docs/product.md: Pictures out).
 */
export const MessageMediaSchema = z.object({ contentType: z.string(), url: z.string() });
export type MessageMedia = z.infer<typeof MessageMediaSchema>;

export const MessageSchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  type: z.enum(MESSAGE_TYPES),
  direction: z.enum(MESSAGE_DIRECTIONS),
  body: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  createdAt: z.string(),
  /** Who sent an outbound message from the app; null for inbound. */
  sentBy: z.nullable(MemberRefSchema),
  /** A note's `@Name` mentions of members, resolved when it was written (shared/mentions.ts); [] for texts. */
  mentions: z.array(MemberRefSchema),
  /** An MMS's media, in Twilio's order (a sent one's in the order attached); [] for a text without any. A message may be pictures only (body ''). */
  media: z.array(MessageMediaSchema),
  smsMessage: SmsDetailsSchema,
  /**
   * A text that failed after Twilio had taken it, and was sent again by Retry: the id of the new
   * message that carries its words (docs/product.md: Retry). Absent otherwise.
   */
  resentAs: z.optional(z.string()),
});
export type Message = z.infer<typeof MessageSchema>;

export const ConversationSchema = z.object({
  id: z.string(),
  status: z.enum(CONVERSATION_STATUSES),
  /** name is '' when nobody named the contact (the list shows the number); id null once the contact was deleted. */
  contact: z.object({ id: z.nullable(z.string()), name: z.string(), phoneNumber: z.string() }),
  channel: z.object({ id: z.string(), identifier: z.string() }),
  /**
   * `mediaCount` (absent means 0) and `mediaKinds`, each item's kind in order (shared/media-kinds.ts; absent
   * on conversations stored before): the list says "Photo", "2 photos", "PDF"… for a message without text.
   * `sentBy`: who sent an outbound one from the app (the list says "You:" or their first name); absent
   * for inbound ones and those stored before. `failed`: the last message is a text that failed, before
   * or after Twilio took it (the list marks it); absent means not.
   */
  lastMessage: z.nullable(
    z.object({
      direction: z.enum(MESSAGE_DIRECTIONS),
      body: z.string(),
      mediaCount: z.optional(z.number()),
      mediaKinds: z.optional(z.array(z.enum(MEDIA_KINDS))),
      sentBy: z.optional(MemberRefSchema),
      failed: z.optional(z.boolean()),
    }),
  ),
  lastMessageAt: z.string(),
  messageCount: z.number(),
  /** The contact texted STOP to this channel (or Twilio answered 21610): sending is refused until START. */
  optedOut: z.boolean(),
  createdAt: z.string(),
  /** Who owns it: null when unassigned. */
  assignee: z.nullable(MemberRefSchema),
  /**
   * For the user asking: the inbound texts since they last read it, plus notes mentioning them since.
   * Events go to every member, so the conversation they carry has none (SharedConversation).
   */
  unreadCount: z.number(),
});
export type Conversation = z.infer<typeof ConversationSchema>;
/** A conversation as events push it to the whole company: the same, less the reader's own unread count. */
export type SharedConversation = Omit<Conversation, 'unreadCount'>;

/**
 * Why texts cannot be sent from a conversation now: its channel was deactivated (Twilio was
 * disconnected), imported without SMS, or its Twilio account is not connected. Opt-outs are `optedOut`.
 */
export const SENDING_BLOCKS = ['CHANNEL_INACTIVE', 'CHANNEL_WITHOUT_SMS', 'PROVIDER_NOT_CONNECTED'] as const;
export type SendingBlock = (typeof SENDING_BLOCKS)[number];

/** Where a number's channel comes back after Twilio was disconnected: the Channels page says it alike. */
export const REIMPORT_DIRECTIONS = 'Import the number again in Settings → Providers';

/**
 * What the thread and a refused send (409) say, with the number as people read it (formatted for the
 * company's country by the caller).
 */
export function sendingBlockedMessage(block: SendingBlock, number: string): string {
  switch (block) {
    case 'CHANNEL_INACTIVE':
      return `Texts cannot be sent from ${number}: it is inactive since Twilio was disconnected. ${REIMPORT_DIRECTIONS} to send from it.`;
    case 'CHANNEL_WITHOUT_SMS':
      return `Texts cannot be sent from ${number}: it was imported without SMS.`;
    case 'PROVIDER_NOT_CONNECTED':
      return `Texts cannot be sent from ${number}: Twilio is not connected. Connect it in Settings → Providers.`;
  }
}

export const ConversationDetailSchema = z.extend(ConversationSchema, {
  /**
   * The members who may be assigned it or be offered in the note's mention list, by name: owners,
   * admins and the agents who see it without an assignment (docs/product.md: Who sees what).
   */
  members: z.array(MemberRefSchema),
  /** Why the composer cannot send now; null when it can. */
  sendingBlockedBy: z.nullable(z.enum(SENDING_BLOCKS)),
  /** Why texts here cannot carry pictures (shared/pictures.ts); null when they can. */
  picturesBlockedBy: z.nullable(z.enum(PICTURE_BLOCKS)),
  /** Oldest first; the newest THREAD_PAGE_SIZE, or the page before `before`. */
  messages: z.array(MessageSchema),
  /** Pass as `before` to read the messages older than these; null when there are none. */
  olderCursor: z.nullable(z.string()),
});
export type ConversationDetail = z.infer<typeof ConversationDetailSchema>;

const cursor = z.string().check(z.maxLength(500, 'cursor is invalid'));

export const listConversations = httpContract({
  method: 'GET',
  path: '/api/v1/conversations',
  auth: 'user',
  query: z.object({
    status: z._default(z.enum(CONVERSATION_STATUS_FILTERS, { error: 'status must be OPEN, CLOSED or BOTH' }), 'BOTH'),
    limit: pageLimit(CONVERSATION_PAGE_SIZE, MAX_CONVERSATION_PAGE_SIZE),
    /** Kept for API callers (docs/product.md §7); its cost grows with the offset. The web app pages by cursor. */
    offset: z.optional(
      z.coerce
        .number({ error: 'offset must be a number' })
        .check(z.int('offset must be a whole number'), z.minimum(0, 'offset must be at least 0')),
    ),
    cursor: z.optional(cursor),
    /** `me`, `unassigned` or a member's id; any member's list, same paging, totals and cost per page. */
    assignee: z.optional(
      z.string().check(z.minLength(1, 'assignee must be me, unassigned or a user id'), z.maxLength(100, 'assignee is too long')),
    ),
    /**
     * `true`: only conversations with unread texts for the caller, among the UNREAD_WINDOW most recently
     * active ones of the other filters (a bounded read; the total counts those).
     */
    unread: z.optional(z.enum(['true', 'false'], { error: 'unread must be true or false' })),
  }),
  response: z.object({
    conversations: z.array(ConversationSchema),
    total: z.number(),
    pagination: z.object({ total: z.number(), limit: z.number(), offset: z.number(), nextCursor: z.nullable(z.string()) }),
  }),
});
export type ConversationPage = z.infer<typeof listConversations.response>;

export const getConversation = httpContract({
  method: 'GET',
  path: '/api/v1/conversations/{id}',
  auth: 'user',
  query: z.object({ before: z.optional(cursor) }),
  response: z.object({ conversation: ConversationDetailSchema }),
});

/** '1,600'. Not toLocaleString: loading the locale data at import costs every handler ~15 ms of cold start. */
const withThousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

export const messageBody = z
  .string({
    error: (issue) => (issue.input === undefined ? 'Message content must not be empty' : 'Message content must be text'),
  })
  .check(
    z.refine((body) => body.trim().length > 0, 'Message content must not be empty'),
    z.maxLength(MAX_MESSAGE_LENGTH, `A message can be at most ${withThousands(MAX_MESSAGE_LENGTH)} characters`),
  );

/** Words of a text that carries pictures: they may be empty. */
const captionBody = z
  .string({
    error: (issue) => (issue.input === undefined ? 'Message content must not be empty' : 'Message content must be text'),
  })
  .check(z.maxLength(MAX_MESSAGE_LENGTH, `A message can be at most ${withThousands(MAX_MESSAGE_LENGTH)} characters`));

/** Uploads (`createPictureUpload`) a text carries, in the order attached. */
const pictureIds = z.optional(
  z
    .array(
      z
        .string({ error: 'pictureIds must be upload ids' })
        .check(z.minLength(1, 'pictureIds must be upload ids'), z.maxLength(100, 'pictureIds must be upload ids')),
      { error: 'pictureIds must be a list of upload ids' },
    )
    .check(z.maxLength(MAX_PICTURES_PER_TEXT, `A text can carry at most ${MAX_PICTURES_PER_TEXT} pictures`)),
);

/** A text's words are required unless pictures come with them (docs/product.md: Pictures out). */
const wordsOrPictures = z.refine<{ body: string; pictureIds?: string[] | undefined }>(
  (text) => text.body.trim().length > 0 || (text.pictureIds?.length ?? 0) > 0,
  { message: 'Message content must not be empty', path: ['body'] },
);

export const sendMessage = httpContract({
  method: 'POST',
  path: '/api/v1/conversations/{id}/messages',
  auth: 'user',
  body: z.object({ body: captionBody, pictureIds }).check(wordsOrPictures),
  response: z.object({ message: MessageSchema }),
});

/** An upload URL for one picture: PUT exactly the announced bytes there, with `headers`, before `expiresAt`. */
export const PictureUploadSchema = z.object({
  id: z.string(),
  url: z.string(),
  headers: z.record(z.string(), z.string()),
  expiresAt: z.string(),
});
export type PictureUpload = z.infer<typeof PictureUploadSchema>;

/** A picture to attach to a text (docs/product.md: Pictures out): where to upload it. */
export const createPictureUpload = httpContract({
  method: 'POST',
  path: '/api/v1/picture-uploads',
  auth: 'user',
  body: z.object({
    contentType: z.enum(PICTURE_TYPES, { error: 'Pictures must be JPEG, PNG or GIF' }),
    size: z
      .number({ error: 'size must be a number of bytes' })
      .check(
        z.int('size must be a whole number of bytes'),
        z.minimum(1, 'The picture is empty'),
        z.maximum(MAX_PICTURE_BYTES, `A picture can be at most ${MAX_PICTURE_BYTES / (1024 * 1024)} MB`),
      ),
  }),
  response: z.object({ upload: PictureUploadSchema }),
});

/**
 * Sends a failed outbound text again (docs/product.md: Retry). One Twilio never took is sent again as
 * the same message (200, `data.message` that message). One that failed after Twilio took it (undelivered,
 * failed: Twilio cannot send a message twice) is sent as a new message with the same words (201,
 * `data.message` the new one); the failed one then carries `resentAs`. 409 for anything else, or once
 * it was sent again.
 */
export const retryMessage = httpContract({
  method: 'POST',
  path: '/api/v1/conversations/{id}/messages/{messageId}/retry',
  auth: 'user',
  response: z.object({ message: MessageSchema }),
});

export const updateConversationStatus = httpContract({
  method: 'PATCH',
  path: '/api/v1/conversations/{id}/status',
  auth: 'user',
  body: z.object({ status: z.enum(CONVERSATION_STATUSES, { error: 'status must be OPEN or CLOSED' }) }),
  response: z.object({ conversation: ConversationSchema }),
});

/** Marks the conversation read for the caller: its unread count becomes 0; nobody else's changes. */
export const markConversationRead = httpContract({
  method: 'POST',
  path: '/api/v1/conversations/{id}/read',
  auth: 'user',
  response: z.object({ conversation: ConversationSchema }),
});

/**
 * What a refused assignment (409) says: the member named does not see the conversation without it
 * (shared/visibility.ts mayBeAssigned), by how its number is routed now.
 */
export function notAssignableMessage(name: string, routingType: 'UNASSIGNED' | 'INBOX' | 'USER' | null): string {
  switch (routingType) {
    case 'INBOX':
      return `${name} is not a member of this conversation's inbox, so they cannot be assigned it.`;
    case 'USER':
      return `${name} cannot be assigned this conversation: its number is another member's private line.`;
    default:
      return `${name} cannot be assigned this conversation: its number is routed to no inbox, so only owners and admins see it.`;
  }
}

/**
 * Assigns the conversation to an active member of the company who may see it (404 for anyone else; 409
 * with notAssignableMessage for a member who does not see it without the assignment), or unassigns it (null).
 */
export const assignConversation = httpContract({
  method: 'PATCH',
  path: '/api/v1/conversations/{id}/assignee',
  auth: 'user',
  body: z.object({
    userId: z.nullable(
      z
        .string({ error: 'userId must be a user id or null' })
        .check(z.minLength(1, 'userId must be a user id or null'), z.maxLength(100, 'userId is too long')),
    ),
  }),
  response: z.object({ conversation: ConversationSchema }),
});

export const noteBody = z
  .string({ error: (issue) => (issue.input === undefined ? 'Note must not be empty' : 'Note must be text') })
  .check(
    z.refine((body) => body.trim().length > 0, 'Note must not be empty'),
    z.maxLength(MAX_NOTE_LENGTH, `A note can be at most ${withThousands(MAX_NOTE_LENGTH)} characters`),
  );

/** A mentioned member picked from the composer's list, at most one per mention a note can hold. */
const MAX_CHOSEN_MENTIONS = 50;

/**
 * An internal note in the thread (201); never sent to Twilio. `@Name` mentions mark it unread for those
 * members. `mentionIds`: the members the author picked from the list, so of two with the same name the
 * one picked is mentioned (shared/mentions.ts); optional, a picked name that is no longer written
 * mentions nobody, and an id of nobody in the company is ignored.
 */
export const addNote = httpContract({
  method: 'POST',
  path: '/api/v1/conversations/{id}/notes',
  auth: 'user',
  body: z.object({
    body: noteBody,
    mentionIds: z.optional(
      z
        .array(
          z
            .string({ error: 'mentionIds must be member ids' })
            .check(z.minLength(1, 'mentionIds must be member ids'), z.maxLength(100, 'mentionIds must be member ids')),
          { error: 'mentionIds must be a list of member ids' },
        )
        .check(z.maxLength(MAX_CHOSEN_MENTIONS, `A note can mention at most ${MAX_CHOSEN_MENTIONS} members`)),
    ),
  }),
  response: z.object({ message: MessageSchema }),
});

/**
 * The nav's count: open conversations with unread texts (or mentions) for the caller, among
 * the UNREAD_WINDOW most recently active; `complete` is false when older open conversations were not looked at.
 */
export const unreadConversations = httpContract({
  method: 'GET',
  path: '/api/v1/conversations/unread',
  auth: 'user',
  response: z.object({ count: z.number(), complete: z.boolean() }),
});

/**
 * One media item of a message, `index` from 0: the bytes with their content type, fetched
 * from Twilio with the company's credentials; cacheable privately. Another company's: 404; larger than
 * MAX_MEDIA_ANSWER_BYTES: 413 with a message.
 */
export const messageMedia = httpContract({
  method: 'GET',
  path: '/api/v1/conversations/{id}/messages/{messageId}/media/{index}',
  auth: 'user',
  binary: true,
});

/** A Twilio SID: two letters and 32 hex digits (SM… for a message). */
const twilioSid = (name: string) =>
  z.string({ error: `${name} is required` }).check(z.regex(/^[A-Z]{2}[0-9a-f]{32}$/i, `${name} is not a Twilio SID`));
const numSegments = z.coerce
  .number({ error: 'NumSegments must be a number' })
  .check(z.int('NumSegments must be a whole number'), z.minimum(0, 'NumSegments must be at least 0'));
const twilioPhone = (name: string) =>
  z.string({ error: `${name} is required` }).check(z.minLength(1, `${name} is required`), z.maxLength(64, `${name} is too long`));

/**
 * An inbound MMS's media: `NumMedia`, then `MediaUrl{n}` and `MediaContentType{n}` for each
 * item from 0, at most MAX_MESSAGE_MEDIA. https://www.twilio.com/docs/messaging/guides/webhook-request#media-related-parameters
 */
type MediaIndex = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
const mediaUrl = (name: string) => z.optional(z.string().check(z.maxLength(1000, `${name} is too long`)));
const mediaContentType = (name: string) => z.optional(z.string().check(z.maxLength(255, `${name} is too long`)));
const mediaFields = Object.fromEntries(
  Array.from({ length: MAX_MESSAGE_MEDIA }, (_, i) => [
    [`MediaUrl${i}`, mediaUrl(`MediaUrl${i}`)],
    [`MediaContentType${i}`, mediaContentType(`MediaContentType${i}`)],
  ]).flat(),
) as Record<`MediaUrl${MediaIndex}`, ReturnType<typeof mediaUrl>> &
  Record<`MediaContentType${MediaIndex}`, ReturnType<typeof mediaContentType>>;
const numMedia = z.coerce
  .number({ error: 'NumMedia must be a number' })
  .check(
    z.int('NumMedia must be a whole number'),
    z.minimum(0, 'NumMedia must be at least 0'),
    z.maximum(MAX_MESSAGE_MEDIA, `NumMedia must be at most ${MAX_MESSAGE_MEDIA}`),
  );

/**
 * Twilio webhooks (auth `twilio`): the body is Twilio's form parameters (only those the product reads
 * are listed; Twilio sends more); answers are TwiML.
 * https://www.twilio.com/docs/messaging/guides/webhook-request
 */
export const inboundSmsWebhook = httpContract({
  method: 'POST',
  path: '/webhooks/twilio/{webhookId}/sms',
  auth: 'twilio',
  body: z.object({
    MessageSid: twilioSid('MessageSid'),
    From: twilioPhone('From'),
    To: twilioPhone('To'),
    Body: z._default(z.string(), ''),
    NumSegments: z.optional(numSegments),
    NumMedia: z.optional(numMedia),
    ...mediaFields,
  }),
});

/** https://www.twilio.com/docs/messaging/guides/track-outbound-message-status */
export const smsStatusWebhook = httpContract({
  method: 'POST',
  path: '/webhooks/twilio/{webhookId}/sms/status',
  auth: 'twilio',
  body: z.object({
    MessageSid: twilioSid('MessageSid'),
    MessageStatus: z.string({ error: 'MessageStatus is required' }).check(z.maxLength(32, 'MessageStatus is too long')),
    ErrorCode: z.optional(z.string().check(z.regex(/^\d{0,8}$/, 'ErrorCode must be a number'))),
    NumSegments: z.optional(numSegments),
  }),
});

// —— Starting a conversation (docs/product.md: New conversation) ——

/** A number the member may start a text from: its channel, and the inbox it is routed to (null: routed to the member, or to nobody). */
export const SendingNumberSchema = z.object({
  channelId: z.string(),
  phoneNumber: z.string(),
  /** Whether the number can send pictures (shared/pictures.ts takes it with the recipient). */
  mms: z.boolean(),
  inboxName: z.nullable(z.string()),
});
export type SendingNumber = z.infer<typeof SendingNumberSchema>;

/** The numbers the caller may start a conversation from, in number order. */
export const listSendingNumbers = httpContract({
  method: 'GET',
  path: '/api/v1/conversations/sending-numbers',
  auth: 'user',
  response: z.object({ sendingNumbers: z.array(SendingNumberSchema) }),
});

/**
 * Texts a number first: `to` as people type it, read for the company's country. 201 with a new
 * conversation; 200 with the open one (a closed one is reopened) of that contact and number.
 */
export const startConversation = httpContract({
  method: 'POST',
  path: '/api/v1/conversations',
  auth: 'user',
  body: z
    .object({
      to: z.string({ error: 'Please enter a phone number' }).check(
        z.refine((to) => to.trim().length > 0, 'Please enter a phone number'),
        z.maxLength(40, 'The phone number is too long'),
      ),
      channelId: z
        .string({ error: 'Choose a number to send from' })
        .check(z.minLength(1, 'Choose a number to send from'), z.maxLength(100, 'channelId is too long')),
      body: captionBody,
      pictureIds,
    })
    .check(wordsOrPictures),
  response: z.object({ conversation: ConversationSchema }),
});
