import * as z from 'zod/mini';
import { CONTACTS_LIST_LIMIT } from '../constants';
import { pageLimit } from './fields';
import { httpContract } from './route';

/** The contact book (docs/product.md §2 Contacts, §3 Contact, §5 New contact and Contact delete, §7 contacts). */

export const CONTACT_NAME_MAX = 100;
export const CONTACT_NOTES_MAX = 2_000;
export const CONTACT_SEARCH_MAX = 100;
/** A new contact's number that is not a number of the company's country (or in international notation). */
export const INVALID_PHONE_NUMBER = 'Enter a valid phone number';

export const ContactSchema = z.object({
  id: z.string(),
  /** '' until somebody names the contact (the page shows Unknown). */
  name: z.string(),
  /** E.164; fixed after creation. */
  phoneNumber: z.string(),
  email: z.nullable(z.string()),
  notes: z.nullable(z.string()),
  callCount: z.number(),
  conversationCount: z.number(),
  lastContactAt: z.nullable(z.string()),
  /** The conversation with the latest message to or from the contact: where its conversation count leads. */
  lastConversationId: z.nullable(z.string()),
  createdAt: z.string(),
});
export type Contact = z.infer<typeof ContactSchema>;
/**
 * A contact as an event tells every member of it: without its counts, which are each reader's (an
 * agent counts only what they see: docs/product.md: Who sees what).
 */
export type SharedContact = Omit<Contact, 'callCount' | 'conversationCount'>;

const name = z
  .string({ error: 'Name must be text' })
  .check(z.trim(), z.maxLength(CONTACT_NAME_MAX, `Name must be at most ${CONTACT_NAME_MAX} characters`));

/** Optional e-mail: empty or null clears it; anything else must be an address. */
const email = z
  .pipe(
    z.nullable(
      z.string({ error: 'Email must be text' }).check(z.trim(), z.maxLength(254, 'Email must be at most 254 characters')),
    ),
    z.transform((value) => (value ? value.toLowerCase() : null)),
  )
  .check(z.refine((value) => value === null || z.email().safeParse(value).success, 'Enter a valid email address'));

const notes = z.pipe(
  z.nullable(
    z
      .string({ error: 'Notes must be text' })
      .check(z.maxLength(CONTACT_NOTES_MAX, `Notes must be at most ${CONTACT_NOTES_MAX.toLocaleString('en-US')} characters`)),
  ),
  z.transform((value) => (value?.trim() ? value : null)),
);

export const listContacts = httpContract({
  method: 'GET',
  path: '/api/v1/contacts',
  auth: 'user',
  query: z.object({
    /** Name, e-mail or phone number in any notation; empty lists the book by name. */
    search: z.optional(
      z.string().check(z.maxLength(CONTACT_SEARCH_MAX, `search must be at most ${CONTACT_SEARCH_MAX} characters`)),
    ),
    limit: pageLimit(CONTACTS_LIST_LIMIT, CONTACTS_LIST_LIMIT),
  }),
  response: z.object({ contacts: z.array(ContactSchema) }),
});

export const createContact = httpContract({
  method: 'POST',
  path: '/api/v1/contacts',
  auth: 'user',
  body: z.object({
    name: z._default(name, ''),
    phoneNumber: z
      .string({
        error: (issue) =>
          issue.input === undefined || issue.input === null ? 'Phone number is required' : 'Phone number must be text',
      })
      .check(z.trim(), z.minLength(1, 'Phone number is required'), z.maxLength(40, INVALID_PHONE_NUMBER)),
    email: z._default(z.optional(email), null),
    notes: z._default(z.optional(notes), null),
  }),
  response: z.object({ contact: ContactSchema }),
});

export const updateContact = httpContract({
  method: 'PUT',
  path: '/api/v1/contacts/{id}',
  auth: 'user',
  body: z.object({
    name: z.optional(name),
    email: z.optional(email),
    notes: z.optional(notes),
    /** docs/product.md §5: the number is fixed once the contact exists. */
    phoneNumber: z.optional(z.undefined({ error: 'Phone number cannot be changed' })),
  }),
  response: z.object({ contact: ContactSchema }),
});

export const deleteContact = httpContract({
  method: 'DELETE',
  path: '/api/v1/contacts/{id}',
  auth: 'user',
  response: z.object({ id: z.string() }),
});
