import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * For tests of the conflict proxy and of the table client behind it: DynamoDB Local answers in
 * milliseconds, so "in flight at the same moment" is made certain rather than likely. The proxy talks
 * to DynamoDB Local through this gate, which holds the requests it is told to hold (still the real
 * requests, answered by DynamoDB Local once let go), can lose an answer DynamoDB Local gave (as a
 * dropped connection loses one in AWS), and keeps the bodies of the requests it passed on.
 */
export async function startGate(target: string) {
  const held: { release: () => void }[] = [];
  const passed: { operation: string; body: Record<string, unknown> }[] = [];
  let holding: string | undefined;
  let left = 0;
  let losing: string | undefined;
  const upstream = new URL(target);
  const server = createServer(async (req, res) => {
    const operation = String(req.headers['x-amz-target']).split('.')[1];
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const lose = operation === losing;
    if (lose) losing = undefined;
    const send = () => {
      passed.push({ operation: operation ?? '', body: JSON.parse(body.toString('utf8') || '{}') });
      const out = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (a) => {
          if (lose) {
            // DynamoDB Local has applied the request; its answer never reaches the caller.
            a.resume();
            a.once('end', () => res.destroy());
            return;
          }
          res.writeHead(a.statusCode ?? 502, a.rawHeaders);
          a.pipe(res);
        },
      );
      out.once('error', () => res.destroy());
      out.end(body);
    };
    if (operation === holding && left > 0) {
      left -= 1;
      held.push({ release: send });
    } else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Holds the next request of this operation, until `open`. */
    hold: (operation: string) => {
      holding = operation;
      left = 1;
    },
    heldCount: () => held.length,
    open: () => {
      holding = undefined;
      for (const h of held.splice(0)) h.release();
    },
    /** Passes the next request of this operation on, and drops the connection instead of answering. */
    loseAnswer: (operation: string) => {
      losing = operation;
    },
    /** The requests passed on to DynamoDB Local (since the last `forget`), with their bodies. */
    passed: (operation?: string) => passed.filter((p) => !operation || p.operation === operation),
    forget: () => {
      passed.length = 0;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
