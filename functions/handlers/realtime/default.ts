import { CLIENT_EVENT_TYPES, socketDefault } from '../../../shared/contract/realtime';
import { defineSocketHandler } from '../../lib/define-socket-handler';

const KNOWN = new Set<string>(CLIENT_EVENT_TYPES);

/**
 * Client messages (SPEC §3). A heartbeat only proves the socket is alive; call and room messages gain
 * their effects with the calling features. Unknown types are refused so a client bug shows.
 */
export const handler = defineSocketHandler(socketDefault, async ({ body }) => {
  const type = (body as { type?: unknown } | undefined)?.type;
  if (typeof type !== 'string' || !KNOWN.has(type)) return { statusCode: 400, body: 'Unknown message type' };
  return { statusCode: 200 };
});
