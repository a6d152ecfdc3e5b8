import type { IncomingMessage, ServerResponse } from 'node:http';

/** API Gateway's own limit for HTTP API payloads. */
export const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

/** A request's body, or 'too-large' past API Gateway's payload limit (read no further). */
export async function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_PAYLOAD_BYTES) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** The address a request came from, as API Gateway reports it (IPv4 without Node's `::ffff:` prefix). */
export function sourceIp(req: IncomingMessage): string {
  return (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
}

/** A header's value, its name matched case-insensitively (a WebSocket event keeps the sender's spelling). */
export function headerValue(headers: Record<string, string | undefined> | undefined, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === wanted)?.[1];
}
