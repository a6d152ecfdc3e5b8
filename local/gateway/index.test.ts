import { connect } from 'node:net';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { quietLogger } from '../log';
import { freePort } from '../ports';
import { createGateway, LOCAL_SQS_PATH } from './index';
import { environment } from './test-gateway';

const fallback = { handler: 'fallback', table: 'none' as const, capabilities: [] };

/** A request line as a client may send it, whatever node's URL parser makes of it: the answer's status line. */
function rawRequest(port: number, target: string) {
  return new Promise<string>((resolve, reject) => {
    let answer = '';
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
    );
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('end', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

describe('the gateway', () => {
  it('serves @connections, the SQS stand-in and the HTTP API on one port', async () => {
    const port = await freePort();
    const consumed: string[] = [];
    const gateway = createGateway({
      log: quietLogger,
      // In-process functions sign with the stack's key; the consumer may send to its own queue.
      environment: { ...environment, AWS_ACCESS_KEY_ID: 'stack-key' },
      routes: {
        http: [],
        socket: [],
        fallback,
        queues: [{ queue: 'companyDeletion', handler: 'consume', table: 'none', capabilities: ['companyDeletion'] }],
      },
      handlers: {
        fallback: async () => ({ statusCode: 404, body: 'fallback' }),
        consume: async (event) => {
          consumed.push((event as { Records: { body: string }[] }).Records[0]?.body ?? '');
        },
      },
    });
    await gateway.listen(port);
    try {
      const base = `http://127.0.0.1:${port}`;
      const sqs = new SQSClient({
        endpoint: `${base}${LOCAL_SQS_PATH}`,
        region: 'us-east-1',
        credentials: { accessKeyId: 'stack-key', secretAccessKey: 'l' },
      });
      await sqs.send(new SendMessageCommand({ QueueUrl: `${base}${LOCAL_SQS_PATH}/local/companyDeletion`, MessageBody: 'm' }));
      await expect.poll(() => consumed).toEqual(['m']);
      expect((await fetch(`${base}/@connections/nobody`, { method: 'POST', body: 'x' })).status).toBe(410);
      const other = await fetch(`${base}/anything`);
      expect({ status: other.status, body: await other.text() }).toEqual({ status: 404, body: 'fallback' });
    } finally {
      await gateway.close();
    }
  });

  it('answers a request whose target is no URL 500, and goes on serving', async () => {
    const port = await freePort();
    const gateway = createGateway({
      log: { ...quietLogger, error: () => {} },
      environment,
      routes: { http: [], socket: [], fallback },
      handlers: { fallback: async () => ({ statusCode: 404 }) },
    });
    await gateway.listen(port);
    try {
      expect(await rawRequest(port, '//[')).toBe('HTTP/1.1 500 Internal Server Error');
      expect(await rawRequest(port, '/')).toBe('HTTP/1.1 404 Not Found');
    } finally {
      await gateway.close();
    }
  });
});

describe('scheduled jobs', () => {
  it('run once per runScheduled, with the schedule’s input and only their capabilities’ environment', async () => {
    const runs: { event: unknown; variables: string[] }[] = [];
    const gateway = createGateway({
      log: quietLogger,
      environment,
      routes: {
        http: [],
        socket: [],
        fallback: { handler: 'system/not-found', table: 'none', capabilities: [] },
        scheduled: [{ handler: 'sweep', schedule: 'channelHealth', table: 'none', capabilities: ['publish'] }],
      },
      handlers: {
        sweep: async (event) => {
          runs.push({ event, variables: Object.keys(process.env).filter((name) => name in environment) });
        },
      },
    });
    await gateway.listen(await freePort());
    try {
      // Nothing runs by itself: the local stack's timer (npm start only) asks.
      expect(runs).toEqual([]);
      await gateway.runScheduled('channelHealth', { intervalMinutes: 15 });
      expect(runs).toEqual([{ event: { intervalMinutes: 15 }, variables: ['TABLE_NAME', 'WS_CALLBACK_URL'] }]);
    } finally {
      await gateway.close();
    }
  });

  it('run nothing once the gateway is closing', async () => {
    const runs: unknown[] = [];
    const gateway = createGateway({
      log: quietLogger,
      environment,
      routes: {
        http: [],
        socket: [],
        fallback,
        scheduled: [{ handler: 'sweep', schedule: 'channelHealth', table: 'none', capabilities: [] }],
      },
      handlers: { sweep: async (event) => void runs.push(event) },
    });
    await gateway.listen(await freePort());
    await gateway.close();
    await gateway.runScheduled('channelHealth', {});
    expect(runs).toEqual([]);
  });
});
