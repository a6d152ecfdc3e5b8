import type { IncomingMessage } from 'node:http';
import { ORIGIN_SECRET_HEADER } from '../../functions/lib/config';
import { sourceIp } from './http-io';

/**
 * What CloudFront does in front of the APIs: it sets `CloudFront-Viewer-Address` to the address the
 * request really came from (whatever the client sent) and adds the secret origin header. Locally the
 * gateway is the only way in, so every request gets both, and no client can choose its address.
 * Without an origin secret the gateway plays a call straight to the execute-api endpoint instead:
 * the request reaches the API as the client sent it, guessed headers and all.
 */
export function asFromCloudFront(headers: Record<string, string>, req: IncomingMessage, originSecret: string | undefined) {
  if (!originSecret) return;
  headers['cloudfront-viewer-address'] = `${sourceIp(req)}:${req.socket.remotePort ?? 0}`;
  headers[ORIGIN_SECRET_HEADER] = originSecret;
}

/**
 * A WebSocket API's `$connect` event has the headers' names as the client sent them, not lower-cased as
 * an HTTP API's payload 2.0 has them (`Host`, `Sec-WebSocket-Key`, …), in `headers` (a repeated
 * header's last value) and `multiValueHeaders` (every value), as the examples of
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-websocket-api-lambda-auth.html
 * show. CloudFront's additions as CloudFront names them (the origin secret as infra/constructs/web-hosting.ts
 * configures it); whatever the client sent under those names, in any case, is dropped. Without an
 * origin secret nothing is added or dropped (asFromCloudFront).
 */
export function connectHeaders(req: IncomingMessage, originSecret: string | undefined) {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  // Without an origin secret, a call straight to the execute-api endpoint: the headers as the client sent them.
  const added = new Set(originSecret ? [ORIGIN_SECRET_HEADER, 'cloudfront-viewer-address'] : []);
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] as string;
    const value = req.rawHeaders[i + 1] as string;
    if (added.has(name.toLowerCase())) continue;
    headers[name] = value;
    multiValueHeaders[name] = [...(multiValueHeaders[name] ?? []), value];
  }
  const add = (name: string, value: string) => {
    headers[name] = value;
    multiValueHeaders[name] = [value];
  };
  if (originSecret) {
    add('CloudFront-Viewer-Address', `${sourceIp(req)}:${req.socket.remotePort ?? 0}`);
    add(ORIGIN_SECRET_HEADER, originSecret);
  }
  return { headers, multiValueHeaders };
}

/**
 * What CloudFront's viewer-request function does in AWS (WS_PATH_REWRITE, infra/constructs/web-hosting.ts):
 * the stage has no sub-paths, so `/ws/company/{id}` reaches it as `/ws` with `companyId` taken from the path.
 */
export function companyFromPath(url: URL): URLSearchParams {
  const search = new URLSearchParams(url.searchParams);
  const match = /^\/ws\/company\/([^/]+)\/?$/.exec(url.pathname);
  if (match?.[1]) search.set('companyId', decodeURIComponent(match[1]));
  return search;
}
