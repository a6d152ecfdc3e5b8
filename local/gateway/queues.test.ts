import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { QueueDoesNotExist, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import type { QueueConsumerEntry } from '../../functions/routes';
import { quietLogger } from '../log';
import { freePort } from '../ports';
import { createQueues, isQueuePath, LOCAL_SQS_PATH } from './queues';

const consumer: QueueConsumerEntry = {
  queue: 'companyDeletion',
  handler: 'jobs/company-deletion',
  table: 'none',
  capabilities: [],
};

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
  });
  const server: Server = createServer((req, res) => {
    queues.handle(req, res);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${port}${LOCAL_SQS_PATH}`;
  const client = new SQSClient({ endpoint: base, region: 'us-east-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
  return {
    received,
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

  it('serves its path with or without the trailing slash, and no other', () => {
    expect([LOCAL_SQS_PATH, `${LOCAL_SQS_PATH}/`, `${LOCAL_SQS_PATH}/x`, '/'].map(isQueuePath)).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});
