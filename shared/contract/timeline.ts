import * as z from 'zod/mini';
import { CallSchema } from './calls';
import { MessageSchema } from './conversations';
import { httpContract } from './route';

/**
 * One contact's texts, notes, calls and voicemails in one list, newest first (docs/product.md: Contact
 * timeline). Each item names its `kind`: a text or a note carries the message as a thread shows it, a
 * call or a voicemail the call as Call History shows it.
 */

/** Items a page of the timeline holds; older ones come by `nextCursor`. */
export const TIMELINE_PAGE_SIZE = 25;

export const TIMELINE_KINDS = ['TEXT', 'NOTE', 'CALL', 'VOICEMAIL'] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export const TimelineItemSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('TEXT'), id: z.string(), createdAt: z.string(), message: MessageSchema }),
  z.object({ kind: z.literal('NOTE'), id: z.string(), createdAt: z.string(), message: MessageSchema }),
  z.object({ kind: z.literal('CALL'), id: z.string(), createdAt: z.string(), call: CallSchema }),
  z.object({ kind: z.literal('VOICEMAIL'), id: z.string(), createdAt: z.string(), call: CallSchema }),
]);
export type TimelineItem = z.infer<typeof TimelineItemSchema>;

export const contactTimeline = httpContract({
  method: 'GET',
  path: '/api/v1/contacts/{id}/timeline',
  auth: 'user',
  query: z.object({
    /** A `nextCursor` of an earlier page: the items older than it. */
    cursor: z.optional(z.string().check(z.maxLength(500, 'cursor is invalid'))),
  }),
  response: z.object({
    items: z.array(TimelineItemSchema),
    /** Pass as `cursor` for the older items; null when there are none. */
    nextCursor: z.nullable(z.string()),
  }),
});
