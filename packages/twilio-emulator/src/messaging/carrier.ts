import type { EmulatorEvents } from '../events';
import type { Logger } from '../log';
import { type AccountRecord, type MessageRecord, type MessageStatus, now } from '../model';
import { API_VERSION } from '../representation';
import type { EmulatorStore } from '../store';
import { deliverWebhook } from '../webhooks';
import { TEST_NUMBERS } from './messages-api';
import { fetchOutboundMedia } from './outbound-media';

export const DEFAULT_MESSAGE_STEP_MS = 300;

const IN_PROGRESS = new Set<MessageStatus>(['queued', 'sending', 'sent']);

/** Twilio's 30003: the handset is off or out of coverage. https://www.twilio.com/docs/api/errors/30003 */
const UNREACHABLE_HANDSET = { code: 30003, message: 'Unreachable destination handset' };

/**
 * The carrier: takes each new outbound message through `queued → sending → sent → delivered` (or
 * `undelivered` for the unreachable test number), one step every `stepMs(accountSid)`, and posts a
 * signed status callback for every step after the first. Twilio sends no callback for the initial
 * `queued`, and one for each later change.
 * https://www.twilio.com/docs/messaging/guides/outbound-message-status-in-status-callbacks
 *
 * A message's callbacks go out one after another, so the product sees them in the order the statuses
 * changed (the timing of the steps does not wait for them). A callback that fails is recorded, never
 * thrown: the carrier goes on.
 */
export function startCarrier(options: {
  store: EmulatorStore;
  events: EmulatorEvents;
  stepMs: (accountSid: string) => number;
  log: Logger;
}) {
  const { store, events, stepMs, log } = options;
  const timers = new Set<NodeJS.Timeout>();
  /** Messages under way, so a later announcement of one never starts it twice. */
  const started = new Set<string>();
  const stopped = new AbortController();

  const onMessage = (account: AccountRecord, message: MessageRecord) => {
    if (message.direction === 'outbound-api' && message.status === 'queued' && !started.has(message.sid)) {
      started.add(message.sid);
      advance(account.sid, message.sid);
    }
  };
  events.on('message', onMessage);

  // Messages left under way when the emulator last stopped go on from where they were.
  for (const account of store.accounts) {
    for (const message of account.messages) {
      if (message.direction === 'outbound-api' && IN_PROGRESS.has(message.status)) {
        started.add(message.sid);
        advance(account.sid, message.sid);
      }
    }
  }

  function advance(accountSid: string, sid: string) {
    const message = store.findMessage(sid)?.message;
    const route: MessageStatus[] = [
      'queued',
      'sending',
      'sent',
      message?.to === TEST_NUMBERS.undeliverable ? 'undelivered' : 'delivered',
    ];
    const steps = route.slice(route.indexOf(message?.status ?? 'queued') + 1);
    let callbacks = Promise.resolve();
    const next = (index: number) => {
      const status = steps[index];
      if (!status) {
        started.delete(sid);
        return;
      }
      const timer = setTimeout(async () => {
        timers.delete(timer);
        const found = store.findMessage(sid);
        // Gone with a reset: nothing left to advance.
        if (!found) return;
        const { account, message } = found;
        // An MMS's media are fetched as it starts sending; one that cannot be fetched fails it.
        const fetched =
          status === 'sending' && message.mediaUrls?.length && message.media.length === 0
            ? await fetchOutboundMedia(store, message)
            : undefined;
        if (stopped.signal.aborted || !store.findMessage(sid)) return;
        const failed = fetched?.ok === false ? fetched.error : undefined;
        store.change(() => {
          message.status = failed ? 'failed' : status;
          message.dateUpdated = now(store.clock);
          if (fetched?.ok) {
            for (const { record, bytes } of fetched.media) {
              message.media.push(record);
              store.mediaBytes.set(record.sid, bytes);
            }
          }
          if (failed) {
            message.errorCode = failed.code;
            message.errorMessage = failed.message;
          }
          if (status === 'sent') message.dateSent = message.dateUpdated;
          if (status === 'undelivered') {
            message.errorCode = UNREACHABLE_HANDSET.code;
            message.errorMessage = UNREACHABLE_HANDSET.message;
          }
        });
        events.emit('message', account, message);
        if (message.statusCallback) {
          // This step's status: the callback may go out after the next step has moved the message on.
          const posted = message.status;
          const params = statusCallbackParams(account, message);
          callbacks = callbacks
            .then(() => postCallback(account, message, posted, params))
            .catch((error: unknown) =>
              log.error(`status callback of ${sid}: ${error instanceof Error ? error.message : String(error)}`),
            );
        }
        if (failed) {
          started.delete(sid);
          return;
        }
        next(index + 1);
      }, stepMs(accountSid));
      timers.add(timer);
    };
    next(0);
  }

  async function postCallback(
    account: AccountRecord,
    message: MessageRecord,
    status: MessageStatus,
    params: Record<string, string>,
  ) {
    if (stopped.signal.aborted) return;
    const attempt = await deliverWebhook({
      url: message.statusCallback,
      method: 'POST',
      params,
      authToken: account.authToken,
      signal: stopped.signal,
      lost: store.faults.takeWebhookDrop(account.sid),
      clock: store.clock,
    });
    if (attempt.status === null || attempt.status >= 400)
      log.warn(`status callback ${status} of ${message.sid} to ${attempt.url}: ${attempt.status ?? attempt.body}`);
    // The message may have gone with a reset while the callback was out.
    if (!store.findMessage(message.sid)) return;
    store.change(() => message.callbacks.push({ ...attempt, messageStatus: status }));
    events.emit('message', account, message);
  }

  return {
    stop() {
      events.off('message', onMessage);
      stopped.abort();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

/**
 * A status callback's parameters: the message, its new status under both names, and ErrorCode when
 * it failed. https://www.twilio.com/docs/messaging/guides/track-outbound-message-status
 */
function statusCallbackParams(account: AccountRecord, message: MessageRecord): Record<string, string> {
  return {
    AccountSid: account.sid,
    ApiVersion: API_VERSION,
    From: message.from,
    MessageSid: message.sid,
    MessageStatus: message.status,
    SmsSid: message.sid,
    SmsStatus: message.status,
    To: message.to,
    ...(message.errorCode === null ? {} : { ErrorCode: String(message.errorCode) }),
  };
}
