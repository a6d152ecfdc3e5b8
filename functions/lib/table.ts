/**
 * The single table's layout: key names, indexes, the TTL attribute and every key builder, in one
 * module. The CDK table (infra/) and the local table (local/) are both created from `tableDefinition`.
 */

export const TABLE_KEYS = { partitionKey: 'PK', sortKey: 'SK' } as const;

export const GSI1 = { indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' } as const;
/** A second overloaded index: conversations of a company by activity whatever their status. */
export const GSI2 = { indexName: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' } as const;

/**
 * A third: conversations of a company by assignee (a member's id, or NONE) and status,
 * newest activity first. "Any status" reads the OPEN and CLOSED partitions side by side and merges them.
 * Also a contact's calls by time (the contact timeline).
 */
export const GSI3 = { indexName: 'GSI3', partitionKey: 'GSI3PK', sortKey: 'GSI3SK' } as const;

/**
 * A fourth: conversations of a company by channel and status, newest activity first. An agent's list
 * reads the partitions of the channels they see (docs/product.md: Who sees what), so its first page
 * costs a few Queries whatever the size of the inboxes they are not in (docs/architecture.md §4).
 */
export const GSI4 = { indexName: 'GSI4', partitionKey: 'GSI4PK', sortKey: 'GSI4SK' } as const;

/** Epoch seconds; DynamoDB deletes the item some time after this passes, so readers still check it. */
export const TTL_ATTRIBUTE = 'expiresAt';

export const tableDefinition = {
  partitionKey: TABLE_KEYS.partitionKey,
  sortKey: TABLE_KEYS.sortKey,
  globalSecondaryIndexes: [GSI1, GSI2, GSI3, GSI4],
  ttlAttribute: TTL_ATTRIBUTE,
} as const;

/**
 * Key builders. Every item of company data starts its partition with the company. Each item also
 * carries `entity` (COMPANY, USER, CHANNEL…) naming what it is.
 */
export const keys = {
  company: (companyId: string) => ({ PK: `COMPANY#${companyId}`, SK: 'META' }),
  /**
   * The company's activity counters, in shards next to the company item (their sort keys begin with
   * its `META`, so one query reads the item and every shard): each message adds to one at random.
   */
  companyCounters: (companyId: string, shard: number) => ({ PK: `COMPANY#${companyId}`, SK: `META#COUNTERS#${shard}` }),
  /** The company item and its counter shards: one prefix query reads them all. */
  companyWithCountersOf: (companyId: string) => ({ PK: `COMPANY#${companyId}`, SKPrefix: 'META' }),
  /** GSI1 entry that lists every company for platform administrators, newest last. */
  companyListing: (createdAt: string, companyId: string) => ({ GSI1PK: 'COMPANIES', GSI1SK: `${createdAt}#${companyId}` }),
  /**
   * Platform totals (companies, users, verified users) for the admin overview, in a few shards: every
   * sign-up adds to one at random, so parallel sign-ups rarely touch the same item.
   */
  platformStats: (shard: number) => ({ PK: 'PLATFORM#STATS', SK: `SHARD#${shard}` }),
  user: (companyId: string, userId: string) => ({ PK: `COMPANY#${companyId}`, SK: `USER#${userId}` }),
  usersOf: (companyId: string) => ({ PK: `COMPANY#${companyId}`, SKPrefix: 'USER#' }),
  /** Uniqueness of an e-mail across all companies; also the login lookup. */
  email: (email: string) => ({ PK: `EMAIL#${email.toLowerCase()}`, SK: 'EMAIL' }),
  verification: (tokenHash: string) => ({ PK: `VERIFY#${tokenHash}`, SK: 'VERIFY' }),
  /** A password-reset link's token (its SHA-256), valid an hour and spent once. */
  passwordReset: (tokenHash: string) => ({ PK: `PWRESET#${tokenHash}`, SK: 'PWRESET' }),
  /**
   * A removal whose conversations are not all moved yet (docs/product.md: Removed members): every
   * company's in one well-known partition, so the scheduled sweep finds them all in one Query. Written
   * with the removal, deleted once none are left. It carries its `companyId`, as global items do, so
   * deleting the company deletes it.
   */
  unfinishedRemoval: (companyId: string, userId: string) => ({
    PK: 'REMOVALS#UNFINISHED',
    SK: `COMPANY#${companyId}#USER#${userId}`,
  }),
  unfinishedRemovals: () => ({ PK: 'REMOVALS#UNFINISHED', SKPrefix: 'COMPANY#' }),
  /** The company and user an e-mail was removed from: what a removed member's sign-in is told. */
  removedMember: (email: string) => ({ PK: `EMAIL#${email.toLowerCase()}`, SK: 'REMOVED' }),
  refreshToken: (tokenHash: string) => ({ PK: `REFRESH#${tokenHash}`, SK: 'REFRESH' }),
  refreshFamily: (familyId: string) => ({ PK: `REFRESHFAMILY#${familyId}`, SK: 'FAMILY' }),
  /** One entry per live sign-in session (refresh family) of a user: "sign out everywhere" is one Query. */
  userSession: (companyId: string, userId: string, familyId: string) => ({
    PK: `COMPANY#${companyId}`,
    SK: `USERSESSION#${userId}#${familyId}`,
  }),
  userSessionsOf: (companyId: string, userId: string) => ({ PK: `COMPANY#${companyId}`, SKPrefix: `USERSESSION#${userId}#` }),
  throttle: (bucket: string, subject: string, window: number) => ({
    PK: `THROTTLE#${bucket}#${subject}`,
    SK: `WINDOW#${window}`,
  }),
  provider: (companyId: string, providerId: string) => ({ PK: `COMPANY#${companyId}`, SK: `PROVIDER#${providerId}` }),
  providersOf: (companyId: string) => ({ PK: `COMPANY#${companyId}`, SKPrefix: 'PROVIDER#' }),
  /** One provider of a type per company. */
  providerType: (companyId: string, type: string) => ({ PK: `COMPANY#${companyId}`, SK: `PROVIDERTYPE#${type}` }),
  /** The opaque id in a provider's webhook paths leads to its company before the request is parsed. */
  webhook: (webhookId: string) => ({ PK: `WEBHOOK#${webhookId}`, SK: 'WEBHOOK' }),
  channel: (companyId: string, channelId: string) => ({ PK: `COMPANY#${companyId}`, SK: `CHANNEL#${channelId}` }),
  channelsOf: (companyId: string) => ({ PK: `COMPANY#${companyId}`, SKPrefix: 'CHANNEL#' }),
  /** What one channel repair changed in Twilio, and who asked: an audit entry, oldest first. */
  channelRepair: (companyId: string, channelId: string, at: string, id: string) => ({
    PK: `COMPANY#${companyId}`,
    SK: `CHANNELREPAIR#${channelId}#${at}#${id}`,
  }),
  /**
   * A channel's outbound texts of one day (YYYY-MM-DD, UTC) by outcome: counters the sends and the
   * status callbacks add to (channels/delivery-summary.ts). Outside `CHANNEL#`, so listing channels skips them.
   */
  channelDelivery: (companyId: string, channelId: string, day: string) => ({
    PK: `COMPANY#${companyId}`,
    SK: `CHANNELDELIVERY#${channelId}#${day}`,
  }),
  /**
   * An import in progress: the number's URLs from before import, written before the number is
   * touched, so a retry or a disconnect after a timeout knows what to finish or put back.
   */
  numberImport: (companyId: string, numberSid: string) => ({ PK: `COMPANY#${companyId}`, SK: `NUMBERIMPORT#${numberSid}` }),
  numberImportsOf: (companyId: string) => ({ PK: `COMPANY#${companyId}`, SKPrefix: 'NUMBERIMPORT#' }),
  /** A phone number belongs to one company's channel; also the inbound webhook lookup. */
  number: (e164: string) => ({ PK: `NUMBER#${e164}`, SK: 'NUMBER' }),
  inbox: (companyId: string, inboxId: string) => ({ PK: `COMPANY#${companyId}`, SK: `INBOX#${inboxId}` }),
  inboxesOf: (companyId: string) => ({ PK: `COMPANY#${companyId}`, SKPrefix: 'INBOX#' }),
  /** One inbox per name and company, whatever the case or spacing: two 'Support' inboxes cannot be told apart. */
  inboxName: (companyId: string, name: string) => ({
    PK: `COMPANY#${companyId}`,
    SK: `INBOXNAME#${name.trim().replace(/\s+/g, ' ').toLowerCase()}`,
  }),
  inboxMember: (companyId: string, inboxId: string, userId: string) => ({
    PK: `COMPANY#${companyId}`,
    SK: `INBOXMEMBER#${inboxId}#${userId}`,
  }),
  inboxMembersOf: (companyId: string, inboxId: string) => ({ PK: `COMPANY#${companyId}`, SKPrefix: `INBOXMEMBER#${inboxId}#` }),
  /** Reverse of inboxMember: the inboxes a user belongs to (caller IDs). */
  userInbox: (companyId: string, userId: string, inboxId: string) => ({
    PK: `COMPANY#${companyId}`,
    SK: `USERINBOX#${userId}#${inboxId}`,
  }),
  userInboxesOf: (companyId: string, userId: string) => ({ PK: `COMPANY#${companyId}`, SKPrefix: `USERINBOX#${userId}#` }),
  inboxRouting: (companyId: string, inboxId: string, channelType: string) => ({
    PK: `COMPANY#${companyId}`,
    SK: `INBOXROUTING#${inboxId}#${channelType}`,
  }),
  inboxRoutingOf: (companyId: string, inboxId: string) => ({ PK: `COMPANY#${companyId}`, SKPrefix: `INBOXROUTING#${inboxId}#` }),
  invitation: (companyId: string, invitationId: string) => ({ PK: `COMPANY#${companyId}`, SK: `INVITE#${invitationId}` }),
  invitationsOf: (companyId: string) => ({ PK: `COMPANY#${companyId}`, SKPrefix: 'INVITE#' }),
  /** One pending invitation per address and company: inviting again replaces it. */
  invitationEmail: (companyId: string, email: string) => ({
    PK: `COMPANY#${companyId}`,
    SK: `INVITEEMAIL#${email.toLowerCase()}`,
  }),
  /** The link's token (SHA-256) leads to the invitation; kept after use so a second click can say so. */
  invitationToken: (tokenHash: string) => ({ PK: `INVITETOKEN#${tokenHash}`, SK: 'INVITETOKEN' }),
  connection: (companyId: string, connectionId: string) => ({ PK: `COMPANY#${companyId}`, SK: `CONN#${connectionId}` }),
  connectionsOf: (companyId: string) => ({ PK: `COMPANY#${companyId}`, SKPrefix: 'CONN#' }),
  /** The ids of a user's open sockets: $connect adds to it only while it holds fewer than the limit. */
  userSockets: (companyId: string, userId: string) => ({ PK: `COMPANY#${companyId}`, SK: `USERSOCKETS#${userId}` }),
  /** At $disconnect only the connection id is known: this item leads back to the company. */
  connectionOwner: (connectionId: string) => ({ PK: `CONNECTION#${connectionId}`, SK: 'CONNECTION' }),
  /**
   * A socket whose tab reported its phone registered (TTL: the last report plus the lapse). The
   * company's are one Query, which the voice webhook reads before it rings anyone.
   */
  phoneReady: (companyId: string, userId: string, connectionId: string) => ({
    PK: `COMPANY#${companyId}`,
    SK: `PHONEREADY#${userId}#${connectionId}`,
  }),
  phonesReadyOf: (companyId: string) => ({ PK: `COMPANY#${companyId}`, SKPrefix: 'PHONEREADY#' }),
  phonesReadyOfUser: (companyId: string, userId: string) => ({ PK: `COMPANY#${companyId}`, SKPrefix: `PHONEREADY#${userId}#` }),
  /** A single-use realtime ticket, by the SHA-256 of its value. */
  realtimeTicket: (ticketHash: string) => ({ PK: `TICKET#${ticketHash}`, SK: 'TICKET' }),
  contact: (companyId: string, contactId: string) => ({ PK: `COMPANY#${companyId}`, SK: `CONTACT#${contactId}` }),
  contactsOf: (companyId: string) => ({ PK: `COMPANY#${companyId}`, SKPrefix: 'CONTACT#' }),
  /** One contact per E.164 number and company; holds the contact's id (inbound SMS and calls find it here). */
  contactPhone: (companyId: string, e164: string) => ({ PK: `COMPANY#${companyId}`, SK: `CONTACTPHONE#${e164}` }),
  /**
   * The contact book's own partition of search entries, written with the contact: `term` is a search
   * term (functions/contacts/search-terms.ts) and the entry holds the contact's id. A search is a
   * begins_with Query here, whatever the size of the book.
   */
  contactSearch: (companyId: string, term: string, contactId: string) => ({
    PK: `COMPANY#${companyId}#CONTACTSEARCH`,
    SK: `${term}#${contactId}`,
  }),
  contactSearchOf: (companyId: string, termPrefix: string) => ({
    PK: `COMPANY#${companyId}#CONTACTSEARCH`,
    SKPrefix: termPrefix,
  }),
  conversation: (companyId: string, conversationId: string) => ({ PK: `COMPANY#${companyId}`, SK: `CONV#${conversationId}` }),
  /** One conversation per (channel, contact): holds its id, so an inbound message finds it without a scan. */
  conversationLink: (companyId: string, channelId: string, contactId: string) => ({
    PK: `COMPANY#${companyId}`,
    SK: `CONVLINK#${channelId}#${contactId}`,
  }),
  /**
   * Index entries written on the conversation item itself: GSI1 lists a status newest activity first,
   * GSI2 lists every status. The sort key ends with the id, so equal times still page without gaps.
   */
  conversationByStatus: (companyId: string, status: string, lastMessageAt: string, conversationId: string) => ({
    GSI1PK: `COMPANY#${companyId}#CONVS#${status}`,
    GSI1SK: `${lastMessageAt}#${conversationId}`,
  }),
  conversationByActivity: (companyId: string, lastMessageAt: string, conversationId: string) => ({
    GSI2PK: `COMPANY#${companyId}#CONVS`,
    GSI2SK: `${lastMessageAt}#${conversationId}`,
  }),
  /** Messages of a conversation in their own partition, oldest first by sort key. */
  /** The assignee index entry (GSI3) on the conversation item; `assigneeId` null for unassigned. */
  conversationByAssignee: (
    companyId: string,
    assigneeId: string | null,
    status: string,
    lastMessageAt: string,
    conversationId: string,
  ) => ({
    GSI3PK: `COMPANY#${companyId}#CONVS#ASSIGNEE#${assigneeId ?? 'NONE'}#${status}`,
    GSI3SK: `${lastMessageAt}#${conversationId}`,
  }),
  /**
   * The channel index entry (GSI4) on the conversation item: a channel's conversations of one status.
   * Visibility follows the channel's routing now, so the entry names the channel, never an inbox.
   */
  conversationByChannel: (
    companyId: string,
    channelId: string,
    status: string,
    lastMessageAt: string,
    conversationId: string,
  ) => ({
    GSI4PK: `COMPANY#${companyId}#CONVS#CHANNEL#${channelId}#${status}`,
    GSI4SK: `${lastMessageAt}#${conversationId}`,
  }),
  /**
   * An agent mentioned in a conversation they would not see otherwise: the mention lets them see it
   * (shared/visibility.ts). One per agent and conversation; a member's are one prefix Query, few by
   * nature (a mention across inboxes), so an agent's list merges them whole.
   */
  mentionGrant: (companyId: string, userId: string, conversationId: string) => ({
    PK: `COMPANY#${companyId}`,
    SK: `MENTIONGRANT#${userId}#${conversationId}`,
  }),
  mentionGrantsOf: (companyId: string, userId: string) => ({ PK: `COMPANY#${companyId}`, SKPrefix: `MENTIONGRANT#${userId}#` }),
  /**
   * A member's last-read marker of a conversation: the conversation's inbound count when
   * they last read it and the mentions of them since. Written when they read it or are mentioned, never per text.
   */
  conversationRead: (companyId: string, conversationId: string, userId: string) => ({
    PK: `COMPANY#${companyId}`,
    SK: `CONVREAD#${conversationId}#${userId}`,
  }),
  message: (companyId: string, conversationId: string, createdAt: string, messageId: string) => ({
    PK: `COMPANY#${companyId}#CONV#${conversationId}`,
    SK: `MSG#${createdAt}#${messageId}`,
  }),
  messagesOf: (companyId: string, conversationId: string) => ({
    PK: `COMPANY#${companyId}#CONV#${conversationId}`,
    SKPrefix: 'MSG#',
  }),
  /**
   * Where a message is by its id: holds its createdAt, so its key (above) follows without reading the
   * thread. Written with outbound messages, the ones a person can send again; beside them in the
   * conversation's partition (`MSGID#` is outside the thread's `MSG#` prefix).
   */
  messageById: (companyId: string, conversationId: string, messageId: string) => ({
    PK: `COMPANY#${companyId}#CONV#${conversationId}`,
    SK: `MSGID#${messageId}`,
  }),
  /** A message by Twilio's MessageSid: written with the message, so a replayed webhook stores nothing twice. */
  messageSid: (messageSid: string) => ({ PK: `MSGSID#${messageSid}`, SK: 'MSGSID' }),
  /**
   * A call in its company's partition, newest last by sort key: Call History is one Query on the time
   * range, whatever the company's size.
   */
  call: (companyId: string, createdAt: string, callId: string) => ({
    PK: `COMPANY#${companyId}`,
    SK: `CALL#${createdAt}#${callId}`,
  }),
  /** Calls between two sort-key times (inclusive): `CALL#<from>` to `CALL#<to>~`. */
  callsBetween: (companyId: string, from: string, to: string) => ({
    PK: `COMPANY#${companyId}`,
    SKFrom: `CALL#${from}`,
    SKTo: `CALL#${to}~`,
  }),
  /**
   * Index entry written on the call item itself (GSI1, beside the conversations' partitions): the
   * calls of one status by time. A status change moves the call between partitions in the same write.
   */
  callByStatus: (companyId: string, status: string, createdAt: string, callId: string) => ({
    GSI1PK: `COMPANY#${companyId}#CALLS#${status}`,
    GSI1SK: `${createdAt}#${callId}`,
  }),
  /**
   * Index entry (GSI2) written on a call item only once it has a voicemail: Call History's
   * "Voicemail" filter is one Query of this sparse partition, newest first.
   */
  callWithVoicemail: (companyId: string, createdAt: string, callId: string) => ({
    GSI2PK: `COMPANY#${companyId}#CALLS#VOICEMAIL`,
    GSI2SK: `${createdAt}#${callId}`,
  }),
  /**
   * Index entry (GSI3) written on a call item that has a contact: the contact's calls by time, so the
   * contact timeline reads them with one Query. Calls stored before it have none until their next change.
   */
  callByContact: (companyId: string, contactId: string, createdAt: string, callId: string) => ({
    GSI3PK: `COMPANY#${companyId}#CONTACT#${contactId}#CALLS`,
    GSI3SK: `${createdAt}#${callId}`,
  }),
  /**
   * Index entry (GSI4) written on a call item that has a channel: the channel's calls by time, so an
   * agent's Call History reads only the channels they see, one Query each (docs/product.md: Who sees
   * what). Calls stored before it have none until their next change.
   */
  callByChannel: (companyId: string, channelId: string, createdAt: string, callId: string) => ({
    GSI4PK: `COMPANY#${companyId}#CALLS#CHANNEL#${channelId}`,
    GSI4SK: `${createdAt}#${callId}`,
  }),
  /**
   * A call a member placed or answered (its `answeredBy`), by time: they see it whatever its channel
   * routes to now, and their Call History reads these beside their channels'. Written once, when the
   * call gets its `answeredBy`, which never changes.
   */
  callHandled: (companyId: string, userId: string, createdAt: string, callId: string) => ({
    PK: `COMPANY#${companyId}`,
    SK: `CALLHANDLED#${userId}#${createdAt}#${callId}`,
  }),
  /** A member's handled calls between two times (inclusive), as `callsBetween`. */
  callsHandledBetween: (companyId: string, userId: string, from: string, to: string) => ({
    PK: `COMPANY#${companyId}`,
    SKFrom: `CALLHANDLED#${userId}#${from}`,
    SKTo: `CALLHANDLED#${userId}#${to}~`,
  }),
  /** A call's voicemail by the call's id → its CallSid: the audio route's way to the call. */
  voicemail: (companyId: string, callId: string) => ({ PK: `COMPANY#${companyId}`, SK: `VOICEMAIL#${callId}` }),
  /** A call by its Twilio CallSid → company and call: status callbacks and answers from the socket find it. */
  callSid: (callSid: string) => ({ PK: `CALLSID#${callSid}`, SK: 'CALLSID' }),
  /** Toll fraud: the company's calling settings — allowed countries, outbound calls a minute. */
  callingSettings: (companyId: string) => ({ PK: `COMPANY#${companyId}`, SK: 'SETTINGS#CALLING' }),
  /** The one outbound call a user has live: its CallSid and start, claimed by a conditional write. */
  liveCall: (companyId: string, userId: string) => ({ PK: `COMPANY#${companyId}`, SK: `LIVECALL#${userId}` }),
  /** The start times of the company's outbound calls in the last minute, changed by versioned writes. */
  outboundCallRate: (companyId: string) => ({ PK: `COMPANY#${companyId}`, SK: 'OUTBOUNDCALLRATE' }),
} as const;

/**
 * The ids a key holds, for readers of items that do not carry them as attributes (a BatchGet's
 * answers come back in no order): the reverse of the builders above, kept next to them.
 */
export const keyIds = {
  /** `COMPANY#<id>` and every partition that starts with it (`COMPANY#<id>#CONV#…`). */
  companyOf: (PK: string): string => /^COMPANY#([^#]*)/.exec(PK)?.[1] ?? '',
  /** `NUMBER#<e164>`. */
  numberOf: (PK: string): string => PK.slice('NUMBER#'.length),
} as const;

export function epochSeconds(date = new Date()): number {
  return Math.floor(date.getTime() / 1000);
}
