/**
 * The route table: every HTTP route, WebSocket route and Twilio webhook as plain data. The CDK stack
 * creates one function per entry from it, and the local gateway dispatches through it. Nothing else
 * lists routes. `handler` is a module below `functions/handlers/` (without extension) exporting `handler`.
 */
import * as auth from '../shared/contract/auth';
import * as realtime from '../shared/contract/realtime';
import type { HttpContract, SocketContract } from '../shared/contract/route';
import * as settings from '../shared/contract/settings';
import * as system from '../shared/contract/system';
import * as team from '../shared/contract/team';

export interface HttpRouteEntry {
  contract: HttpContract;
  handler: string;
}

export interface SocketRouteEntry {
  contract: SocketContract;
  handler: string;
}

export const httpRoutes: readonly HttpRouteEntry[] = [
  { contract: system.health, handler: 'system/health' },
  { contract: auth.register, handler: 'auth/register' },
  { contract: auth.verifyEmail, handler: 'auth/verify-email' },
  { contract: auth.resendVerification, handler: 'auth/resend-verification' },
  { contract: auth.login, handler: 'auth/login' },
  { contract: auth.refresh, handler: 'auth/refresh' },
  { contract: auth.logout, handler: 'auth/logout' },
  { contract: auth.logoutAll, handler: 'auth/logout-all' },
  { contract: auth.me, handler: 'auth/me' },
  { contract: settings.listProviders, handler: 'providers/list' },
  { contract: settings.connectTwilio, handler: 'providers/connect-twilio' },
  { contract: settings.disconnectProvider, handler: 'providers/disconnect' },
  { contract: settings.availableNumbers, handler: 'providers/available-numbers' },
  { contract: settings.importChannels, handler: 'providers/import-channels' },
  { contract: settings.listChannels, handler: 'channels/list' },
  { contract: settings.updateChannelRouting, handler: 'channels/update-routing' },
  { contract: settings.listInboxes, handler: 'inboxes/list' },
  { contract: settings.createInbox, handler: 'inboxes/create' },
  { contract: settings.getInbox, handler: 'inboxes/get' },
  { contract: settings.deleteInbox, handler: 'inboxes/delete' },
  { contract: settings.getInboxRouting, handler: 'inboxes/get-routing' },
  { contract: settings.saveInboxRouting, handler: 'inboxes/save-routing' },
  { contract: settings.addInboxMember, handler: 'inboxes/add-member' },
  { contract: settings.removeInboxMember, handler: 'inboxes/remove-member' },
  { contract: settings.listUsers, handler: 'users/list' },
  { contract: team.removeUser, handler: 'users/remove' },
  { contract: team.updateUserRole, handler: 'users/update-role' },
  { contract: team.createInvitation, handler: 'invitations/create' },
  { contract: team.listInvitations, handler: 'invitations/list' },
  { contract: team.revokeInvitation, handler: 'invitations/revoke' },
  { contract: team.resendInvitation, handler: 'invitations/resend' },
  { contract: team.previewInvitation, handler: 'invitations/preview' },
  { contract: team.acceptInvitation, handler: 'invitations/accept' },
];

export const socketRoutes: readonly SocketRouteEntry[] = [
  { contract: realtime.socketConnect, handler: 'realtime/connect' },
  { contract: realtime.socketDisconnect, handler: 'realtime/disconnect' },
  { contract: realtime.socketDefault, handler: 'realtime/default' },
];

/**
 * Answers any request no route matches, with the envelope (404, or 405 when the path exists with
 * another method). API Gateway's `$default` route in production, the gateway's fallback locally.
 */
export const fallbackRoute = { handler: 'system/not-found' } as const;

/** Routes that are a path template's match for a concrete path, e.g. `/api/v1/x/{id}` for `/api/v1/x/7`. */
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
      params[seg.slice(1, -1)] = decodeURIComponent(actual);
    } else if (seg !== actual) {
      return undefined;
    }
  }
  return params;
}
