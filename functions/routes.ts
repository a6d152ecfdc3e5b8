/**
 * The route table: every HTTP route, WebSocket route and Twilio webhook as plain data. The CDK stack
 * creates one function per entry from it, and the local gateway dispatches through it. Nothing else
 * lists routes. `handler` is a module below `functions/handlers/` (without extension) exporting `handler`.
 */
import * as admin from '../shared/contract/admin';
import * as auth from '../shared/contract/auth';
import * as calls from '../shared/contract/calls';
import * as contacts from '../shared/contract/contacts';
import * as conversations from '../shared/contract/conversations';
import * as realtime from '../shared/contract/realtime';
import type { HttpContract, SocketContract } from '../shared/contract/route';
import * as settings from '../shared/contract/settings';
import * as system from '../shared/contract/system';
import * as team from '../shared/contract/team';
import * as voice from '../shared/contract/voice';
import type { Capability } from './lib/capabilities';

export interface RouteEntry {
  handler: string;
  /** What the function may use beyond the table (least privilege in AWS, environment locally). Required: none is `[]`. */
  capabilities: readonly Capability[];
  /** Seconds before the function is stopped; DEFAULT_TIMEOUT_SECONDS when absent, at most MAX_TIMEOUT_SECONDS. */
  timeoutSeconds?: number;
}

export interface HttpRouteEntry extends RouteEntry {
  contract: HttpContract;
}

export interface SocketRouteEntry extends RouteEntry {
  contract: SocketContract;
}

/** Routes that talk to Twilio: three sequential calls at Twilio's pace must fit. */
const TWILIO_TIMEOUT_SECONDS = 29;

export const httpRoutes: readonly HttpRouteEntry[] = [
  { contract: system.health, handler: 'system/health', capabilities: [] },
  { contract: auth.register, handler: 'auth/register', capabilities: ['mail', 'appUrl'] },
  { contract: auth.verifyEmail, handler: 'auth/verify-email', capabilities: ['jwt', 'mail', 'appUrl', 'publish'] },
  { contract: auth.resendVerification, handler: 'auth/resend-verification', capabilities: ['mail', 'appUrl'] },
  { contract: auth.login, handler: 'auth/login', capabilities: ['jwt', 'publish'] },
  { contract: auth.refresh, handler: 'auth/refresh', capabilities: ['jwt', 'publish'] },
  { contract: auth.logout, handler: 'auth/logout', capabilities: ['jwt', 'publish'] },
  { contract: auth.logoutAll, handler: 'auth/logout-all', capabilities: ['jwt', 'publish'] },
  { contract: auth.me, handler: 'auth/me', capabilities: ['jwt'] },
  { contract: settings.listProviders, handler: 'providers/list', capabilities: ['jwt'] },
  {
    contract: settings.connectTwilio,
    handler: 'providers/connect-twilio',
    capabilities: ['jwt', 'twilio', 'customerSecrets', 'appUrl', 'publish'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
  },
  {
    contract: settings.disconnectProvider,
    handler: 'providers/disconnect',
    capabilities: ['jwt', 'twilio', 'customerSecrets', 'publish'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
  },
  {
    contract: settings.availableNumbers,
    handler: 'providers/available-numbers',
    capabilities: ['jwt', 'twilio', 'customerSecrets'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
  },
  {
    contract: settings.importChannels,
    handler: 'providers/import-channels',
    capabilities: ['jwt', 'twilio', 'customerSecrets', 'appUrl'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
  },
  { contract: settings.listChannels, handler: 'channels/list', capabilities: ['jwt'] },
  { contract: settings.updateChannelRouting, handler: 'channels/update-routing', capabilities: ['jwt'] },
  { contract: settings.listInboxes, handler: 'inboxes/list', capabilities: ['jwt'] },
  { contract: settings.createInbox, handler: 'inboxes/create', capabilities: ['jwt'] },
  { contract: settings.getInbox, handler: 'inboxes/get', capabilities: ['jwt'] },
  { contract: settings.deleteInbox, handler: 'inboxes/delete', capabilities: ['jwt'] },
  { contract: settings.getInboxRouting, handler: 'inboxes/get-routing', capabilities: ['jwt'] },
  { contract: settings.saveInboxRouting, handler: 'inboxes/save-routing', capabilities: ['jwt'] },
  { contract: settings.addInboxMember, handler: 'inboxes/add-member', capabilities: ['jwt'] },
  { contract: settings.removeInboxMember, handler: 'inboxes/remove-member', capabilities: ['jwt'] },
  { contract: settings.listUsers, handler: 'users/list', capabilities: ['jwt'] },
  { contract: team.removeUser, handler: 'users/remove', capabilities: ['jwt', 'publish'] },
  { contract: team.updateUserRole, handler: 'users/update-role', capabilities: ['jwt', 'publish'] },
  { contract: team.createInvitation, handler: 'invitations/create', capabilities: ['jwt', 'mail', 'appUrl'] },
  { contract: team.listInvitations, handler: 'invitations/list', capabilities: ['jwt'] },
  { contract: team.revokeInvitation, handler: 'invitations/revoke', capabilities: ['jwt'] },
  { contract: team.resendInvitation, handler: 'invitations/resend', capabilities: ['jwt', 'mail', 'appUrl'] },
  { contract: team.previewInvitation, handler: 'invitations/preview', capabilities: [] },
  { contract: team.acceptInvitation, handler: 'invitations/accept', capabilities: ['jwt', 'publish'] },
  { contract: contacts.listContacts, handler: 'contacts/list', capabilities: ['jwt'] },
  { contract: contacts.createContact, handler: 'contacts/create', capabilities: ['jwt'] },
  { contract: contacts.updateContact, handler: 'contacts/update', capabilities: ['jwt'] },
  { contract: contacts.deleteContact, handler: 'contacts/delete', capabilities: ['jwt'] },
  { contract: admin.adminOverview, handler: 'admin/overview', capabilities: ['jwt'] },
  { contract: realtime.realtimeTicket, handler: 'realtime/ticket', capabilities: ['jwt'] },
  { contract: conversations.listConversations, handler: 'conversations/list', capabilities: ['jwt'] },
  {
    contract: conversations.updateConversationStatus,
    handler: 'conversations/update-status',
    capabilities: ['jwt', 'publish'],
  },
  { contract: conversations.getConversation, handler: 'conversations/get', capabilities: ['jwt'] },
  {
    contract: conversations.sendMessage,
    handler: 'conversations/send-message',
    capabilities: ['jwt', 'twilio', 'customerSecrets', 'publish'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
  },
  {
    contract: conversations.retryMessage,
    handler: 'conversations/retry-message',
    capabilities: ['jwt', 'twilio', 'customerSecrets', 'publish'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
  },
  // Webhooks decrypt the provider's auth token to check Twilio's signature; they never call Twilio.
  { contract: conversations.inboundSmsWebhook, handler: 'webhooks/inbound-sms', capabilities: ['customerSecrets', 'publish'] },
  { contract: conversations.smsStatusWebhook, handler: 'webhooks/sms-status', capabilities: ['customerSecrets', 'publish'] },
  { contract: voice.companySettings, handler: 'company/settings', capabilities: ['jwt'] },
  { contract: voice.updateCallingSettings, handler: 'company/update-calling', capabilities: ['jwt'] },
  { contract: voice.listCallerIds, handler: 'voice/caller-ids', capabilities: ['jwt'] },
  // Decrypts the API key secret that signs the token; never calls Twilio.
  { contract: voice.voiceToken, handler: 'voice/token', capabilities: ['jwt', 'customerSecrets'] },
  { contract: calls.listCalls, handler: 'calls/list', capabilities: ['jwt'] },
  { contract: voice.inboundCallWebhook, handler: 'webhooks/inbound-call', capabilities: ['customerSecrets', 'publish'] },
  { contract: voice.callStatusWebhook, handler: 'webhooks/call-status', capabilities: ['customerSecrets', 'publish'] },
  { contract: voice.dialResultWebhook, handler: 'webhooks/dial-result', capabilities: ['customerSecrets', 'publish'] },
  { contract: voice.outboundCallWebhook, handler: 'webhooks/outbound-call', capabilities: ['customerSecrets'] },
];

export const socketRoutes: readonly SocketRouteEntry[] = [
  // Every socket route pushes: presence to the company, answers and errors to the socket itself.
  { contract: realtime.socketConnect, handler: 'realtime/connect', capabilities: ['publish'] },
  { contract: realtime.socketDisconnect, handler: 'realtime/disconnect', capabilities: ['publish'] },
  // reject_call from the last agent rung stops the ring through Twilio's REST API.
  {
    contract: realtime.socketDefault,
    handler: 'realtime/default',
    capabilities: ['publish', 'twilio', 'customerSecrets'],
    timeoutSeconds: TWILIO_TIMEOUT_SECONDS,
  },
];

/**
 * Answers any request no route matches, with the envelope (404, or 405 when the path exists with
 * another method). API Gateway's `$default` route in production, the gateway's fallback locally.
 */
export const fallbackRoute: RouteEntry = { handler: 'system/not-found', capabilities: [] };

/**
 * Routes that are a path template's match for a concrete (still URL-encoded) path, e.g.
 * `/api/v1/x/{id}` for `/api/v1/x/7`. A parameter that is not valid URL encoding (`%`, a cut UTF-8
 * sequence) matches nothing, so such a path gets the not-found handler's 4xx, never a URIError.
 */
export function matchPath(template: string, path: string): Record<string, string> | undefined {
  const t = template.split('/');
  const p = path.split('/');
  if (t.length !== p.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < t.length; i++) {
    const seg = t[i] as string;
    const actual = p[i] as string;
    if (seg.startsWith('{') && seg.endsWith('}')) {
      if (actual === '') return undefined;
      const decoded = decodeSegment(actual);
      if (decoded === undefined) return undefined;
      params[seg.slice(1, -1)] = decoded;
    } else if (seg !== actual) {
      return undefined;
    }
  }
  return params;
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Whether every segment of a path is valid URL encoding. */
export function isWellEncodedPath(path: string): boolean {
  return path.split('/').every((segment) => decodeSegment(segment) !== undefined);
}
