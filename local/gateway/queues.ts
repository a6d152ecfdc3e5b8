import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import type { QueueConsumerEntry, RouteEntry } from '../../functions/routes';
import type { Logger } from '../log';
import { accessKeyOfRequest } from '../table-guard';
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
  /** The access keys that may send to a queue: those its senders' functions sign with. */
  sendersOf: (queue: string) => ReadonlySet<string>;
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
    /**
     * SQS's SendMessage as the SDK speaks it (AWS JSON 1.0) at LOCAL_SQS_PATH; no other action. Only
     * from a loopback `Host` (a page whose name was pointed at 127.0.0.1, DNS rebinding, is refused) and
     * signed by a function that may send to the queue, as IAM allows only its senders' roles in AWS
     * (docs/security.md: The company-deletion queue).
     */
    handle: async (req: IncomingMessage, res: ServerResponse) => {
      if (!isLoopbackHost(req.headers.host ?? '')) {
        sendJson(res, 403, {
          __type: 'com.amazonaws.sqs#AccessDenied',
          message: `The local SQS answers on a loopback address only, not as ${req.headers.host || 'an unnamed host'}.`,
        });
        return;
      }
      const target = String(req.headers['x-amz-target'] ?? '');
      const body = await readBody(req);
      if (target !== 'AmazonSQS.SendMessage' || body === 'too-large') {
        sendJson(res, 400, { __type: 'com.amazonaws.sqs#InvalidAction', message: `${target} is not emulated` });
        return;
      }
      const { QueueUrl, MessageBody } = JSON.parse(body.toString('utf8')) as { QueueUrl?: string; MessageBody?: string };
      const queue = QueueUrl?.split('/').pop();
      const message = typeof MessageBody === 'string' ? accept(queue, MessageBody) : undefined;
      if (!message) {
        sendJson(res, 400, { __type: 'com.amazonaws.sqs#QueueDoesNotExist', message: `No queue ${QueueUrl}` });
        return;
      }
      const key = accessKeyOfRequest(req.headers.authorization);
      if (!key || !options.sendersOf(queue as string).has(key)) {
        log.warn(`SQS ${queue}: refused a message ${key ? `signed by ${key}` : 'without a signature'}`);
        sendJson(res, 403, {
          __type: 'com.amazonaws.sqs#AccessDenied',
          message: `Access to the queue ${queue} is denied: only its senders' functions may send to it.`,
        });
        return;
      }
      // Answered first, as SQS answers once the message is stored; its consumer gets it afterwards.
      sendJson(res, 200, message.sent);
      message.deliver();
    },
  };
}

/**
 * `localhost` (and `*.localhost`, which browsers resolve to loopback themselves), 127.0.0.0/8, ::1;
 * any port. The Twilio emulator keeps to the same rule
 * (packages/twilio-emulator/README.md: Cross-site requests).
 */
export function isLoopbackHost(host: string): boolean {
  const name = (host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d+$/, '')).toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  return isIP(name) === 6 && (name === '::1' || name === '0:0:0:0:0:0:0:1');
}
