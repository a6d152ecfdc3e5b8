import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  /** The full URL requested, as the product would rebuild it to check the signature. */
  url: string;
  path: string;
  signature: string | undefined;
  idempotencyToken: string | undefined;
  /** The form parameters of a POST. */
  params: Record<string, string>;
}

/**
 * For the emulator's tests: a small HTTP server standing in for the product's webhooks. It records
 * every request and answers with the status `answers` gives for its path (200 by default) and the
 * TwiML `twiml(path, …)` set for it (a document, or a function of the request; empty TwiML by
 * default); `hold(path, n)` keeps requests to a path unanswered until n of them have arrived.
 */
export async function startReceiver() {
  const requests: ReceivedRequest[] = [];
  const answers = new Map<string, number>();
  const documents = new Map<string, string | ((request: ReceivedRequest) => string)>();
  const holds = new Map<string, { count: number; waiting: (() => void)[] }>();

  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const target = new URL(req.url ?? '/', base);
    const request: ReceivedRequest = {
      method: req.method ?? 'GET',
      url: `${base}${req.url}`,
      path: target.pathname,
      signature: header(req, 'x-twilio-signature'),
      idempotencyToken: header(req, 'i-twilio-idempotency-token'),
      params: Object.fromEntries(new URLSearchParams(req.method === 'POST' ? Buffer.concat(chunks).toString('utf8') : '')),
    };
    requests.push(request);
    const hold = holds.get(target.pathname);
    if (hold) {
      await new Promise<void>((resolve) => {
        hold.waiting.push(resolve);
        if (hold.waiting.length >= hold.count) for (const release of hold.waiting) release();
      });
    }
    res.writeHead(answers.get(target.pathname) ?? 200, { 'Content-Type': 'text/xml' });
    const document = documents.get(target.pathname) ?? '<?xml version="1.0" encoding="UTF-8"?><Response/>';
    res.end(typeof document === 'string' ? document : document(request));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    base,
    requests,
    answer: (path: string, status: number) => answers.set(path, status),
    twiml: (path: string, document: string | ((request: ReceivedRequest) => string)) => documents.set(path, document),
    hold: (path: string, count: number) => holds.set(path, { count, waiting: [] }),
    /** Forgets the requests and every answer, TwiML and hold set, for the next test. */
    reset: () => {
      requests.length = 0;
      answers.clear();
      documents.clear();
      holds.clear();
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
