/**
 * The route table: every HTTP route, WebSocket route and Twilio webhook as plain data. The CDK stack
 * creates one function per entry from it, and the local gateway dispatches through it. Nothing else
 * lists routes. `handler` is a module below `functions/handlers/` (without extension) exporting `handler`.
 *
 * Each entry declares what its function may do, and gets exactly that (docs/security.md: Least privilege):
 * - `table`: `'none'`, `'read'` or `'write'` (read and write) — the DynamoDB actions of TABLE_ACTIONS.
 *   `write` for any Put/Update/Delete/transaction on the handler's paths, throttle counters included
 *   (functions/lib/throttle.ts writes). The local gateway refuses undeclared operations like IAM does.
 * - `capabilities`: what it uses beyond the table (functions/lib/capabilities.ts), `[]` for none.
 * - `kms`: with `customerSecrets` only, the key operations it needs: `['decrypt']` to use stored Twilio
 *   credentials (webhooks, sending, voice tokens), `['encrypt', ...]` only to store new ones.
 * - `pictures`: with the `pictures` capability only, what it does in the pictures bucket (PICTURE_OPERATIONS).
 * - `stack` (HTTP routes): the nested stack the route deploys in, whatever its handler's folder; a new
 *   route names one (docs/architecture.md: Stack sizes).
 * routes.test.ts and infra/switchboard-stack.test.ts check the declarations and the grants.
 */
import * as account from '../shared/contract/account';
import * as admin from '../shared/contract/admin';
import * as auth from '../shared/contract/auth';
import * as callControls from '../shared/contract/call-controls';
import * as calls from '../shared/contract/calls';
import * as channelHealth from '../shared/contract/channel-health';
import * as company from '../shared/contract/company';
import * as contacts from '../shared/contract/contacts';
import * as conversations from '../shared/contract/conversations';
import * as realtime from '../shared/contract/realtime';
import { socketHeartbeat, socketQuietHeartbeat } from '../shared/contract/realtime-events';
import type { AnsweredSocketContract, HttpContract, SocketContract } from '../shared/contract/route';
import * as settings from '../shared/contract/settings';
import * as system from '../shared/contract/system';
import * as team from '../shared/contract/team';
import * as timeline from '../shared/contract/timeline';
import * as voice from '../shared/contract/voice';
import type { Capability, KmsOperation, PictureOperation, TableAccess } from './lib/capabilities';
import { ORIGIN_SECRET_HEADER } from './lib/config';

export interface RouteEntry {
  handler: string;
  /** The function's access to the table: granted in AWS, enforced by the local gateway. */
  table: TableAccess;
  /** What the function may use beyond the table (least privilege in AWS, environment locally). Required: none is `[]`. */
  capabilities: readonly Capability[];
  /** The customer-secrets key operations; declared exactly when `capabilities` has `customerSecrets`. */
  kms?: readonly KmsOperation[];
  /** With `pictures` only, what it does in the pictures bucket (PICTURE_OPERATIONS). */
  pictures?: readonly PictureOperation[];
  /** Seconds before the function is stopped; DEFAULT_TIMEOUT_SECONDS when absent, at most MAX_TIMEOUT_SECONDS. */
  timeoutSeconds?: number;
  /**
   * The route hashes or checks a password (scrypt, functions/auth/passwords.ts): its function gets the
   * memory a hash needs, and the CPU Lambda gives with it (infra: PASSWORD_HASHING_MEMORY_MIB).
   */
  hashesPasswords?: true;
  /**
   * The feature whose log group the function writes to, when it is not the handler's folder: routes
   * whose handlers moved to their feature's folder keep the log group they were deployed with, logs and
   * all (docs/deploy.md: The nested stack of new features).
   */
  logGroup?: 'team-inbox' | 'media';
}

/**
 * The nested stacks an HTTP route can deploy in whole, named as in the CDK app (infra/switchboard-stack.ts);
 * each holds at most 300 resources (docs/architecture.md: Stack sizes).
 */
export const NESTED_STACKS = ['FeatureRoutes'] as const;
export type NestedStackName = (typeof NESTED_STACKS)[number];

export interface HttpRouteEntry extends RouteEntry {
  contract: HttpContract;
  /**
   * Where the route deploys: its function, API route, integration and invoke permission in this nested
   * stack. Absent: the API route and integration stay in the parent stack, where they were first deployed,
   * and only the function with its invoke permission is in the nested stack `HttpFunctions`. A deployed
   * route never changes stack: API Gateway refuses the duplicate route key CloudFormation would create
   * first (docs/deploy.md: The nested stack of new features). A new route names one.
   */
  stack?: NestedStackName;
}

export interface SocketRouteEntry extends RouteEntry {
  contract: SocketContract;
}

/** Routes that talk to Twilio: three sequential calls at Twilio's pace must fit. */
const TWILIO_TIMEOUT_SECONDS = 29;

export const httpRoutes: readonly HttpRouteEntry[] = [
  { contract: system.health, handler: 'system/health', table: 'none', capabilities: [] },
  {
    contract: auth.register,
    handler: 'auth/register',
    table: 'write',
    capabilities: ['mail', 'appUrl'],
    hashesPasswords: true,
  },
  {
    contract: auth.verifyEmail,
    handler: 'auth/verify-email',
    table: 'write',
    capabilities: ['jwt', 'mail', 'appUrl', 'publish'],
  },
  { contract: auth.resendVerification, handler: 'auth/resend-verification', table: 'write', capabilities: ['mail', 'appUrl'] },
  { contract: auth.login, handler: 'auth/login', table: 'write', capabilities: ['jwt', 'publish'], hashesPasswords: true },
  { contract: auth.refresh, handler: 'auth/refresh', table: 'write', capabilities: ['jwt', 'publish'] },
  { contract: auth.logout, handler: 'auth/logout', table: 'write', capabilities: ['jwt', 'publish'] },
  { contract: auth.logoutAll, handler: 'auth/logout-all', table: 'write', capabilities: ['jwt', 'publish'] },
  { contract: auth.me, handler: 'auth/me', table: 'read', capabilities: ['jwt'] },
  { contract: settings.listProviders, handler: 'providers/list', table: 'read', capabilities: ['jwt'] },
  {
    contract: settings.connectTwilio,
    handler: 'providers/connect-twilio',
    table: 'write',
    capabilities: ['jwt', 'twilio', 'customerSecrets', 'appUrl', 'publish'],
    // Encrypts the new credentials; decrypts an unfinished earlier connection's to undo it in Twilio.
    kms: ['encrypt', 'decrypt'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
  },
  {
    contract: settings.disconnectProvider,
    handler: 'providers/disconnect',
    table: 'write',
    capabilities: ['jwt', 'twilio', 'customerSecrets', 'publish'],
    kms: ['decrypt'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
  },
  {
    contract: settings.availableNumbers,
    handler: 'providers/available-numbers',
    table: 'read',
    capabilities: ['jwt', 'twilio', 'customerSecrets'],
    kms: ['decrypt'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
  },
  {
    contract: settings.importChannels,
    handler: 'providers/import-channels',
    table: 'write',
    capabilities: ['jwt', 'twilio', 'customerSecrets', 'appUrl'],
    kms: ['decrypt'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
  },
  { contract: settings.listChannels, handler: 'channels/list', table: 'read', capabilities: ['jwt'] },
  {
    contract: settings.updateChannelRouting,
    handler: 'channels/update-routing',
    table: 'write',
    capabilities: ['jwt', 'publish'],
  },
  // Asks Twilio about the number (refresh, or a first look), keeps the outcome and pushes a change of status.
  {
    contract: channelHealth.getChannelHealth,
    handler: 'channels/health',
    table: 'write',
    capabilities: ['jwt', 'twilio', 'customerSecrets', 'publish'],
    kms: ['decrypt'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
  },
  {
    contract: channelHealth.repairChannel,
    handler: 'channels/repair',
    table: 'write',
    capabilities: ['jwt', 'twilio', 'customerSecrets', 'publish'],
    kms: ['decrypt'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
  },
  { contract: settings.listInboxes, handler: 'inboxes/list', table: 'read', capabilities: ['jwt'] },
  { contract: settings.createInbox, handler: 'inboxes/create', table: 'write', capabilities: ['jwt'] },
  { contract: settings.getInbox, handler: 'inboxes/get', table: 'read', capabilities: ['jwt'] },
  { contract: settings.deleteInbox, handler: 'inboxes/delete', table: 'write', capabilities: ['jwt', 'publish'] },
  { contract: settings.getInboxRouting, handler: 'inboxes/get-routing', table: 'read', capabilities: ['jwt'] },
  { contract: settings.saveInboxRouting, handler: 'inboxes/save-routing', table: 'write', capabilities: ['jwt'] },
  { contract: settings.addInboxMember, handler: 'inboxes/add-member', table: 'write', capabilities: ['jwt', 'publish'] },
  { contract: settings.removeInboxMember, handler: 'inboxes/remove-member', table: 'write', capabilities: ['jwt', 'publish'] },
  { contract: settings.listUsers, handler: 'users/list', table: 'read', capabilities: ['jwt'] },
  { contract: team.removeUser, handler: 'users/remove', table: 'write', capabilities: ['jwt', 'publish'] },
  { contract: team.updateUserRole, handler: 'users/update-role', table: 'write', capabilities: ['jwt', 'publish'] },
  {
    contract: team.createInvitation,
    handler: 'invitations/create',
    table: 'write',
    capabilities: ['jwt', 'mail', 'appUrl', 'publish'],
  },
  { contract: team.listInvitations, handler: 'invitations/list', table: 'read', capabilities: ['jwt'] },
  { contract: team.revokeInvitation, handler: 'invitations/revoke', table: 'write', capabilities: ['jwt', 'publish'] },
  {
    contract: team.resendInvitation,
    handler: 'invitations/resend',
    table: 'write',
    capabilities: ['jwt', 'mail', 'appUrl', 'publish'],
  },
  { contract: team.previewInvitation, handler: 'invitations/preview', table: 'read', capabilities: [] },
  {
    contract: team.acceptInvitation,
    handler: 'invitations/accept',
    table: 'write',
    capabilities: ['jwt', 'publish'],
    hashesPasswords: true,
  },
  { contract: contacts.listContacts, handler: 'contacts/list', table: 'read', capabilities: ['jwt'] },
  { contract: contacts.createContact, handler: 'contacts/create', table: 'write', capabilities: ['jwt', 'publish'] },
  { contract: contacts.updateContact, handler: 'contacts/update', table: 'write', capabilities: ['jwt', 'publish'] },
  { contract: contacts.deleteContact, handler: 'contacts/delete', table: 'write', capabilities: ['jwt', 'publish'] },
  { contract: admin.adminOverview, handler: 'admin/overview', table: 'read', capabilities: ['jwt'] },
  // Where Twilio reaches the platform now (the app URL), and how many numbers point elsewhere.
  { contract: admin.webhookAddress, handler: 'admin/webhook-address', table: 'read', capabilities: ['jwt', 'appUrl'] },
  // Re-points every company's numbers at the current address, in passes that fit the request
  // (docs/deploy.md: Re-pointing the numbers).
  {
    contract: admin.repointWebhooks,
    handler: 'admin/repoint-webhooks',
    table: 'write',
    capabilities: ['jwt', 'twilio', 'customerSecrets', 'appUrl'],
    kms: ['decrypt'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
  },
  // Deleting a company ends its sessions and sockets now and queues the rest (docs/product.md: Deleting a company).
  {
    contract: company.deleteCompany,
    handler: 'company/delete',
    table: 'write',
    capabilities: ['jwt', 'publish', 'companyDeletion'],
  },
  {
    contract: company.adminDeleteCompany,
    handler: 'admin/delete-company',
    table: 'write',
    capabilities: ['jwt', 'publish', 'companyDeletion'],
  },
  { contract: company.getRetention, handler: 'company/retention', table: 'read', capabilities: ['jwt'] },
  { contract: company.updateRetention, handler: 'company/update-retention', table: 'write', capabilities: ['jwt'] },
  { contract: realtime.realtimeTicket, handler: 'realtime/ticket', table: 'write', capabilities: ['jwt'] },
  { contract: conversations.listConversations, handler: 'conversations/list', table: 'read', capabilities: ['jwt'] },
  {
    contract: conversations.updateConversationStatus,
    handler: 'conversations/update-status',
    table: 'write',
    capabilities: ['jwt', 'publish'],
  },
  { contract: conversations.getConversation, handler: 'conversations/get', table: 'read', capabilities: ['jwt'] },
  {
    contract: conversations.sendMessage,
    handler: 'conversations/send-message',
    table: 'write',
    capabilities: ['jwt', 'twilio', 'customerSecrets', 'publish', 'pictures'],
    kms: ['decrypt'],
    // Checks and keeps the text's uploads, and signs the URLs Twilio fetches them by.
    pictures: ['send', 'read'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
  },
  {
    contract: conversations.retryMessage,
    handler: 'conversations/retry-message',
    table: 'write',
    capabilities: ['jwt', 'twilio', 'customerSecrets', 'publish', 'pictures'],
    kms: ['decrypt'],
    // Signs the URLs of the failed text's pictures again; its module is the send's, checks included.
    pictures: ['send', 'read'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
  },
  // The team inbox: added after the parent stack was full, so deployed in a nested stack
  // (docs/deploy.md: The nested stack of new features).
  {
    contract: conversations.unreadConversations,
    handler: 'conversations/unread',
    table: 'read',
    capabilities: ['jwt'],
    stack: 'FeatureRoutes',
    logGroup: 'team-inbox',
  },
  {
    contract: conversations.markConversationRead,
    handler: 'conversations/mark-read',
    table: 'write',
    capabilities: ['jwt', 'publish'],
    stack: 'FeatureRoutes',
    logGroup: 'team-inbox',
  },
  {
    contract: conversations.assignConversation,
    handler: 'conversations/assign',
    table: 'write',
    capabilities: ['jwt', 'publish'],
    stack: 'FeatureRoutes',
    logGroup: 'team-inbox',
  },
  {
    contract: conversations.addNote,
    handler: 'conversations/add-note',
    table: 'write',
    capabilities: ['jwt', 'publish'],
    stack: 'FeatureRoutes',
    logGroup: 'team-inbox',
  },
  // Starting a conversation (docs/product.md: New conversation): the first text goes out as a reply does.
  {
    contract: conversations.startConversation,
    handler: 'conversations/start',
    table: 'write',
    capabilities: ['jwt', 'twilio', 'customerSecrets', 'publish', 'pictures'],
    kms: ['decrypt'],
    pictures: ['send', 'read'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
    stack: 'FeatureRoutes',
  },
  // Pictures out (docs/product.md: Pictures out): where the browser uploads a picture to attach.
  {
    contract: conversations.createPictureUpload,
    handler: 'conversations/create-picture-upload',
    table: 'read',
    capabilities: ['jwt', 'pictures'],
    pictures: ['upload'],
    stack: 'FeatureRoutes',
  },
  {
    contract: conversations.listSendingNumbers,
    handler: 'conversations/sending-numbers',
    table: 'read',
    capabilities: ['jwt'],
    stack: 'FeatureRoutes',
  },
  // Webhooks decrypt the provider's auth token to check Twilio's signature; they never call Twilio.
  {
    contract: conversations.inboundSmsWebhook,
    handler: 'webhooks/inbound-sms',
    table: 'write',
    capabilities: ['customerSecrets', 'publish'],
    kms: ['decrypt'],
  },
  {
    contract: conversations.smsStatusWebhook,
    handler: 'webhooks/sms-status',
    table: 'write',
    capabilities: ['customerSecrets', 'publish'],
    kms: ['decrypt'],
  },
  { contract: voice.companySettings, handler: 'company/settings', table: 'read', capabilities: ['jwt'] },
  { contract: voice.updateCallingSettings, handler: 'company/update-calling', table: 'write', capabilities: ['jwt'] },
  { contract: voice.listCallerIds, handler: 'voice/caller-ids', table: 'read', capabilities: ['jwt'] },
  // Decrypts the API key secret that signs the token; never calls Twilio.
  {
    contract: voice.voiceToken,
    handler: 'voice/token',
    table: 'write',
    capabilities: ['jwt', 'customerSecrets'],
    kms: ['decrypt'],
  },
  { contract: calls.listCalls, handler: 'calls/list', table: 'read', capabilities: ['jwt'] },
  {
    contract: voice.inboundCallWebhook,
    handler: 'webhooks/inbound-call',
    table: 'write',
    capabilities: ['customerSecrets', 'publish'],
    kms: ['decrypt'],
  },
  {
    contract: voice.callStatusWebhook,
    handler: 'webhooks/call-status',
    table: 'write',
    // Twilio too: an answered call of a recording line starts its recording (functions/voice/call-recording.ts),
    // and an answered leg is redirected into the call's conference (functions/voice/conference.ts).
    capabilities: ['customerSecrets', 'publish', 'twilio'],
    kms: ['decrypt'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
  },
  {
    contract: voice.dialResultWebhook,
    handler: 'webhooks/dial-result',
    table: 'write',
    capabilities: ['customerSecrets', 'publish'],
    kms: ['decrypt'],
  },
  {
    contract: voice.outboundCallWebhook,
    handler: 'webhooks/outbound-call',
    table: 'write',
    // publish: a refused call's end (and why) goes to the agent's widget.
    capabilities: ['customerSecrets', 'publish'],
    kms: ['decrypt'],
  },
  // Pictures in texts and voicemail: the bytes are fetched from Twilio with the company's credentials.
  {
    contract: conversations.messageMedia,
    handler: 'conversations/message-media',
    table: 'write',
    capabilities: ['jwt', 'twilio', 'customerSecrets', 'pictures'],
    kms: ['decrypt'],
    // A sent picture's reader is sent to a short-lived URL of it.
    pictures: ['read'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
    stack: 'FeatureRoutes',
    logGroup: 'media',
  },
  {
    contract: callControls.holdCall,
    handler: 'calls/hold',
    table: 'write',
    capabilities: ['jwt', 'publish', 'twilio', 'customerSecrets'],
    kms: ['decrypt'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
    stack: 'FeatureRoutes',
  },
  {
    contract: calls.voicemailAudio,
    handler: 'calls/voicemail-audio',
    table: 'write',
    capabilities: ['jwt', 'twilio', 'customerSecrets'],
    kms: ['decrypt'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
    stack: 'FeatureRoutes',
    logGroup: 'media',
  },
  // Call recording with consent (docs/product.md: Call recording).
  {
    contract: settings.setInboxRecording,
    handler: 'inboxes/set-recording',
    table: 'write',
    capabilities: ['jwt'],
    stack: 'FeatureRoutes',
  },
  {
    contract: calls.pauseCallRecording,
    handler: 'calls/pause-recording',
    table: 'write',
    capabilities: ['jwt', 'twilio', 'customerSecrets'],
    kms: ['decrypt'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
    stack: 'FeatureRoutes',
    logGroup: 'media',
  },
  {
    contract: calls.callRecordingAudio,
    handler: 'calls/recording-audio',
    table: 'write',
    capabilities: ['jwt', 'twilio', 'customerSecrets'],
    kms: ['decrypt'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
    stack: 'FeatureRoutes',
    logGroup: 'media',
  },
  {
    contract: voice.voicemailRecordedWebhook,
    handler: 'webhooks/voicemail-recorded',
    table: 'read',
    capabilities: ['customerSecrets'],
    kms: ['decrypt'],
    stack: 'FeatureRoutes',
    logGroup: 'media',
  },
  {
    contract: voice.recordingStatusWebhook,
    handler: 'webhooks/recording-status',
    table: 'write',
    capabilities: ['customerSecrets', 'publish'],
    kms: ['decrypt'],
    stack: 'FeatureRoutes',
    logGroup: 'media',
  },
  // The contact timeline: a contact's texts, notes, calls and voicemails in one list.
  {
    contract: timeline.contactTimeline,
    handler: 'contacts/timeline',
    table: 'read',
    capabilities: ['jwt'],
    stack: 'FeatureRoutes',
  },
  // Account self-service (docs/product.md: Account self-service).
  {
    contract: account.forgotPassword,
    handler: 'auth/forgot-password',
    table: 'write',
    capabilities: ['mail', 'appUrl'],
    stack: 'FeatureRoutes',
  },
  {
    contract: account.resetPassword,
    handler: 'auth/reset-password',
    table: 'write',
    capabilities: ['jwt', 'publish'],
    hashesPasswords: true,
    stack: 'FeatureRoutes',
  },
  {
    contract: account.updateProfile,
    handler: 'auth/update-profile',
    table: 'write',
    capabilities: ['jwt'],
    stack: 'FeatureRoutes',
  },
  {
    contract: account.changePassword,
    handler: 'auth/change-password',
    table: 'write',
    capabilities: ['jwt', 'publish'],
    hashesPasswords: true,
    stack: 'FeatureRoutes',
  },
  {
    contract: account.renameCompany,
    handler: 'auth/rename-company',
    table: 'write',
    capabilities: ['jwt'],
    stack: 'FeatureRoutes',
  },
];

export const socketRoutes: readonly SocketRouteEntry[] = [
  // Every socket route pushes: presence to the company, answers and errors to the socket itself.
  { contract: realtime.socketConnect, handler: 'realtime/connect', table: 'write', capabilities: ['publish'] },
  { contract: realtime.socketDisconnect, handler: 'realtime/disconnect', table: 'write', capabilities: ['publish'] },
  // reject_call from the last agent rung stops the ring through Twilio's REST API.
  {
    contract: realtime.socketDefault,
    handler: 'realtime/default',
    table: 'write',
    capabilities: ['publish', 'twilio', 'customerSecrets'],
    kms: ['decrypt'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
  },
];

/** Socket routes API Gateway answers itself (MOCK integrations): heartbeats cost no invocation and no table access. */
export const answeredSocketRoutes: readonly AnsweredSocketContract[] = [socketHeartbeat, socketQuietHeartbeat];

/** Functions fed by an SQS queue rather than an API: background work no request waits for. */
export interface QueueConsumerEntry extends RouteEntry {
  /** The queue, named as the capability that sends to it. */
  queue: 'companyDeletion';
}

/** Background steps may run far longer than a request: Lambda's limit is 900 s; SQS's visibility is set above it. */
export const MAX_QUEUE_CONSUMER_TIMEOUT_SECONDS = 300;

export const queueConsumers: readonly QueueConsumerEntry[] = [
  // Puts the company's Twilio numbers back (as a disconnect does), deletes its pictures, then sweeps the table for it.
  {
    handler: 'jobs/company-deletion',
    queue: 'companyDeletion',
    table: 'sweep',
    capabilities: ['twilio', 'customerSecrets', 'publish', 'companyDeletion', 'pictures'],
    kms: ['decrypt'],
    pictures: ['delete'],
    timeoutSeconds: MAX_QUEUE_CONSUMER_TIMEOUT_SECONDS,
  },
];

/** Functions run on a schedule (EventBridge in AWS, a timer in `npm start`): background checks nobody asks for. */
export interface ScheduledJobEntry extends RouteEntry {
  /** What it is run for: names the schedule's interval and local timer. */
  schedule: 'channelHealth' | 'memberRemovals';
  /**
   * The nested stack its function, rule and invoke permission deploy in; absent: the parent, where the
   * first was deployed. A new job names one: the parent keeps its room for what must be shared
   * (docs/architecture.md: Stack sizes).
   */
  stack?: NestedStackName;
}

export const scheduledJobs: readonly ScheduledJobEntry[] = [
  // Checks every active channel of every company in Twilio, hourly by default (docs/product.md: Channel health).
  {
    handler: 'jobs/channel-health-sweep',
    schedule: 'channelHealth',
    table: 'write',
    capabilities: ['twilio', 'customerSecrets', 'publish'],
    kms: ['decrypt'],
    timeoutSeconds: MAX_QUEUE_CONSUMER_TIMEOUT_SECONDS,
  },
  // Finishes removals whose Team page stopped sending passes, every few minutes (docs/product.md: Removed members).
  {
    handler: 'jobs/member-removal-sweep',
    schedule: 'memberRemovals',
    table: 'write',
    capabilities: ['publish'],
    timeoutSeconds: 120,
    stack: 'FeatureRoutes',
  },
];

/**
 * Answers any request no route matches, with the envelope (404, or 405 when the path exists with
 * another method). API Gateway's `$default` route in production, the gateway's fallback locally.
 */
export const fallbackRoute: RouteEntry = { handler: 'system/not-found', table: 'none', capabilities: [] };

/** An API Gateway Lambda authorizer: its function, and what API Gateway does before and after invoking it. */
export interface AuthorizerEntry extends RouteEntry {
  /**
   * Its identity source, a request header: API Gateway answers 401 itself, invoking nothing, when a
   * request lacks it, and keys its cache of answers by its value. Header names match case-insensitively.
   */
  identityHeader: string;
  /** How long the HTTP API keeps an answer for one header value (a WebSocket API caches none). */
  resultTtlSeconds: number;
}

/**
 * API Gateway's Lambda authorizer on every HTTP route and on `$connect`: admits only requests that carry
 * CloudFront's origin secret, before any route function runs (docs/security.md: Direct calls to the API
 * endpoints). It reads that secret and nothing else. The CDK stack attaches it and the local gateway runs it
 * as API Gateway does.
 *
 * Every request through CloudFront carries the same value, so with answers kept 5 minutes it runs
 * about once per 5 minutes, not per request. Minutes, not the hour allowed: a kept "yes" outlives the
 * value's removal by that long (a value stays accepted, as the previous one, until the rotation after
 * next anyway; docs/deploy.md: The origin secret), and a kept "no" for a value CloudFront has just
 * started sending does not block the app for long.
 */
export const originAuthorizer: AuthorizerEntry = {
  handler: 'system/origin-authorizer',
  table: 'none',
  capabilities: [],
  identityHeader: ORIGIN_SECRET_HEADER,
  resultTtlSeconds: 300,
};
