import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/**
 * What keeps a web page on another site from using the emulator through the developer's browser
 * (packages/twilio-emulator/README.md: Cross-site requests). The emulator listens on 127.0.0.1 only, but a
 * browser on the same machine reaches it for any page it shows:
 * - a `Host` that is not a loopback name or address is DNS rebinding (a page's own name pointed at
 *   127.0.0.1 to read the answers, auth tokens included): refused, pages and API alike;
 * - an `Origin` other than the emulator's own, or `Sec-Fetch-Site` other than same-origin (or none,
 *   typed in), is a request a page elsewhere made: refused, except opening a page (a GET navigation,
 *   whose answer that page cannot read);
 * - the control endpoints take JSON only with `Content-Type: application/json`: a form or text/plain
 *   POST (what a page can send without asking first) is answered 415.
 * The REST API keeps taking Twilio's form bodies: its real clients (the twilio SDK, servers) send them
 * and no `Origin`; browsers are kept out by the first two rules.
 */
export type Refusal = { status: 403 | 415; message: string };

const JSON_ONLY = 'Send JSON with Content-Type: application/json.';

export function refuseCrossSite(req: IncomingMessage, path: string, body: string): Refusal | undefined {
  const host = req.headers.host ?? '';
  if (!isLoopback(host)) {
    return { status: 403, message: `The emulator answers on a loopback address only, not as ${host || 'an unnamed host'}.` };
  }
  const method = (req.method ?? 'GET').toUpperCase();
  const opensPage = (method === 'GET' || method === 'HEAD') && req.headers['sec-fetch-mode'] === 'navigate';
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  const crossOrigin =
    (origin !== undefined && origin !== `http://${host}`) || (site !== undefined && site !== 'same-origin' && site !== 'none');
  if (crossOrigin && !opensPage) return { status: 403, message: 'The emulator takes no requests from pages of other sites.' };
  if (path.startsWith('/_emulator/') && body.length > 0 && !isJson(req.headers['content-type'])) {
    return { status: 415, message: JSON_ONLY };
  }
  return undefined;
}

function isJson(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || type.endsWith('+json');
}

/** `localhost` (and `*.localhost`, which browsers resolve to loopback themselves), 127.0.0.0/8, ::1; any port. */
function isLoopback(host: string): boolean {
  const name = (host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d+$/, '')).toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  return isIP(name) === 6 && (name === '::1' || name === '0:0:0:0:0:0:0:1');
}
