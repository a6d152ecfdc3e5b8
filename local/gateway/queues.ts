import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { QueueConsumerEntry, RouteEntry } from '../../functions/routes';
import type { Logger } from '../log';
import { sqsEvent } from './events';
import { readBody, sendJson } from './http-io';

/** Where the functions' SQS client sends (SQS_ENDPOINT); a queue's URL is `${base}/local/<queue>`. */
export const LOCAL_SQS_PATH = '/_local/sqs';
/** SQS makes a message visible again after a failed receive; locally: this many more tries, this far apart. */
const QUEUE_RETRIES = 2;
const QUEUE_RETRY_DELAY_MS = 1000;

export const isQueuePath = (pathname: string) => pathname === LOCAL_SQS_PATH || pathname === `${LOCAL_SQS_PATH}/`;

/**
 * The stand-in for SQS and the event source mappings of the route table's queue consumers: a sent
 * message is handed to its consumer in the background, and tried again a few times if the consumer
 * fails (SQS's redelivery). Nothing new starts once the gateway is closing.
 */
export function createQueues(options: {
  consumers: readonly QueueConsumerEntry[];
  run: (route: RouteEntry, event: unknown) => Promise<unknown>;
  /** Keeps a pending retry among what closing waits for. */
  track: (work: Promise<void>) => void;
  closing: () => boolean;
  log: Logger;
  /** How far apart the tries are (QUEUE_RETRY_DELAY_MS unless a test shortens it). */
  retryDelayMs?: number;
}) {
  const { run, log } = options;
  const retryDelayMs = options.retryDelayMs ?? QUEUE_RETRY_DELAY_MS;

  function deliver(consumer: QueueConsumerEntry, messageId: string, body: string, md5: string, attempt: number) {
    log.info(`SQS ${consumer.queue} → ${consumer.handler} (try ${attempt})`);
    run(consumer, sqsEvent(consumer.queue, messageId, body, md5, attempt)).catch((error: unknown) => {
      log.error(`${consumer.handler} failed: ${(error as Error).stack ?? error}`);
      if (attempt > QUEUE_RETRIES || options.closing()) return;
      options.track(
        new Promise<void>((resolve) =>
          setTimeout(() => {
            if (!options.closing()) deliver(consumer, messageId, body, md5, attempt + 1);
            resolve();
          }, retryDelayMs),
        ),
      );
    });
  }

  /** A message for the consumer of `queue`, with its id and MD5 as SQS answers them; none for an unknown queue. */
  function accept(queue: string | undefined, body: string) {
    const consumer = options.consumers.find((q) => q.queue === queue);
    if (!consumer) return undefined;
    const sent = { MessageId: randomUUID(), MD5OfMessageBody: createHash('md5').update(body).digest('hex') };
    return { sent, deliver: () => deliver(consumer, sent.MessageId, body, sent.MD5OfMessageBody, 1) };
  }

  return {
    /** SQS's SendMessage as the SDK speaks it (AWS JSON 1.0) at LOCAL_SQS_PATH; no other action. */
    handle: async (req: IncomingMessage, res: ServerResponse) => {
      const target = String(req.headers['x-amz-target'] ?? '');
      const body = await readBody(req);
      if (target !== 'AmazonSQS.SendMessage' || body === 'too-large') {
        sendJson(res, 400, { __type: 'com.amazonaws.sqs#InvalidAction', message: `${target} is not emulated` });
        return;
      }
      const { QueueUrl, MessageBody } = JSON.parse(body.toString('utf8')) as { QueueUrl?: string; MessageBody?: string };
      const message = typeof MessageBody === 'string' ? accept(QueueUrl?.split('/').pop(), MessageBody) : undefined;
      if (!message) {
        sendJson(res, 400, { __type: 'com.amazonaws.sqs#QueueDoesNotExist', message: `No queue ${QueueUrl}` });
        return;
      }
      // Answered first, as SQS answers once the message is stored; its consumer gets it afterwards.
      sendJson(res, 200, message.sent);
      message.deliver();
    },
  };
}
