import { createHash } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import { QueueDoesNotExist, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import type { QueueConsumerEntry } from '../../functions/routes';
import { quietLogger } from '../log';
import { freePort } from '../ports';
import { functionAccessKeyId } from '../table-guard';
import { createQueues, isLoopbackHost, isQueuePath, LOCAL_SQS_PATH } from './queues';

const consumer: QueueConsumerEntry = {
  queue: 'companyDeletion',
  handler: 'jobs/company-deletion',
  table: 'none',
  capabilities: [],
};

/** The access key the queue's sender signs with, as a function of the stack does. */
const SENDER = functionAccessKeyId('company/delete-company', 'write');

/** The SQS stand-in alone, with a consumer that fails its first `failures` receives. */
async function startQueues(failures = 0) {
  const received: SQSEvent[] = [];
  const pending = new Set<Promise<void>>();
  let closing = false;
  const queues = createQueues({
    consumers: [consumer],
    run: async (_route, event) => {
      received.push(event as SQSEvent);
      if (received.length <= failures) throw new Error('the consumer failed');
    },
    track: (work) => {
      pending.add(work);
    },
    closing: () => closing,
    // The consumer's failures are the point here, not news.
    log: { ...quietLogger, error: () => {} },
    retryDelayMs: 1,
    sendersOf: (queue) => new Set(queue === 'companyDeletion' ? [SENDER] : []),
  });
  const server: Server = createServer((req, res) => {
    queues.handle(req, res);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${port}${LOCAL_SQS_PATH}`;
  const clientOf = (accessKeyId: string) =>
    new SQSClient({ endpoint: base, region: 'us-east-1', credentials: { accessKeyId, secretAccessKey: 'l' } });
  const client = clientOf(SENDER);
  return {
    received,
    base,
    clientOf,
    queueUrl: (queue: string) => `${base}/local/${queue}`,
    send: (queueUrl: string, body: string) => client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body })),
    stop: () => {
      closing = true;
    },
    close: async () => {
      closing = true;
      await Promise.allSettled(pending);
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('the SQS stand-in, as the functions’ SQS client sends to it', () => {
  let stand: Awaited<ReturnType<typeof startQueues>> | undefined;
  afterEach(() => stand?.close());

  it('answers SendMessage with the id and MD5 SQS gives, and hands the message to its consumer as an SQS event', async () => {
    stand = await startQueues();
    const sent = await stand.send(stand.queueUrl('companyDeletion'), '{"companyId":"c-1"}');
    expect(sent.MD5OfMessageBody).toBe(createHash('md5').update('{"companyId":"c-1"}').digest('hex'));
    await expect.poll(() => stand?.received.length).toBe(1);
    expect(stand.received[0]?.Records).toEqual([
      expect.objectContaining({
        messageId: sent.MessageId,
        body: '{"companyId":"c-1"}',
        md5OfBody: sent.MD5OfMessageBody,
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:local:000000000000:companyDeletion',
        attributes: expect.objectContaining({ ApproximateReceiveCount: '1' }),
      }),
    ]);
  });

  it('tries a failing consumer again, twice more at most, as SQS redelivers', async () => {
    stand = await startQueues(5);
    await stand.send(stand.queueUrl('companyDeletion'), 'm');
    await expect.poll(() => stand?.received.length).toBe(3);
    const counts = stand.received.map((event) => event.Records[0]?.attributes.ApproximateReceiveCount);
    expect(counts).toEqual(['1', '2', '3']);
    const ids = new Set(stand.received.map((event) => event.Records[0]?.messageId));
    expect(ids.size).toBe(1);
  });

  it('tries nothing again once the gateway is closing', async () => {
    stand = await startQueues(1);
    stand.stop();
    await stand.send(stand.queueUrl('companyDeletion'), 'm');
    await expect.poll(() => stand?.received.length).toBe(1);
    await stand.close();
    expect(stand.received).toHaveLength(1);
  });

  it('answers QueueDoesNotExist for a queue without a consumer', async () => {
    stand = await startQueues();
    await expect(stand.send(stand.queueUrl('elsewhere'), 'm')).rejects.toBeInstanceOf(QueueDoesNotExist);
    expect(stand.received).toEqual([]);
  });

  it('refuses a message not signed by a sender of the queue, and delivers none (docs/security.md: The company-deletion queue)', async () => {
    stand = await startQueues();
    const queueUrl = stand.queueUrl('companyDeletion');
    const send = { QueueUrl: queueUrl, MessageBody: '{"companyId":"c-1"}' };
    await expect(stand.clientOf(functionAccessKeyId('auth/me', 'read')).send(new SendMessageCommand(send))).rejects.toMatchObject(
      {
        name: 'AccessDenied',
        $metadata: { httpStatusCode: 403 },
      },
    );
    // Unsigned, as a page or a script could post it.
    const unsigned = await fetch(stand.base, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'AmazonSQS.SendMessage' },
      body: JSON.stringify(send),
    });
    expect(unsigned.status).toBe(403);
    expect(await unsigned.json()).toMatchObject({ __type: 'com.amazonaws.sqs#AccessDenied' });
    expect(stand.received).toEqual([]);
  });

  it('refuses a request whose Host is not a loopback name, as DNS rebinding would send it', async () => {
    stand = await startQueues();
    const port = new URL(stand.base).port;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: LOCAL_SQS_PATH,
          method: 'POST',
          headers: { host: `attacker.example:${port}`, 'x-amz-target': 'AmazonSQS.SendMessage' },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ QueueUrl: stand?.queueUrl('companyDeletion'), MessageBody: 'm' }));
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ __type: 'com.amazonaws.sqs#AccessDenied' });
    expect(stand.received).toEqual([]);
    expect(['localhost:4000', '127.0.0.1', '127.8.0.1:1', '[::1]:80', 'app.localhost'].map(isLoopbackHost)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['attacker.example', '127.0.0.1.attacker.example', '10.0.0.1', '', '[::2]'].map(isLoopbackHost)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('serves its path with or without the trailing slash, and no other', () => {
    expect([LOCAL_SQS_PATH, `${LOCAL_SQS_PATH}/`, `${LOCAL_SQS_PATH}/x`, '/'].map(isQueuePath)).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});
