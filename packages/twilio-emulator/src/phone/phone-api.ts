import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmulatorEvents } from '../events';
import { emulatorMediaPath } from '../messaging/representation';
import type { AccountRecord, CallRecord, MessageRecord } from '../model';
import type { EmulatorStore } from '../store';

/** Keeps idle event streams open through proxies and tells a closed page apart. */
const KEEP_ALIVE_MS = 15_000;

/** A text as the phone simulator shows it: the message, its status and how the product's webhook answered. */
export function phoneMessage(message: MessageRecord) {
  const last = message.webhooks.at(-1);
  return {
    sid: message.sid,
    direction: message.direction,
    from: message.from,
    to: message.to,
    body: message.body,
    status: message.status,
    errorCode: message.errorCode,
    errorMessage: message.errorMessage,
    dateCreated: message.dateCreated,
    /** Its pictures and files, where the page reads them (an outbound MMS's once fetched, as it sends). */
    media: message.media.map((m) => ({ contentType: m.contentType, url: emulatorMediaPath(message.sid, m.sid) })),
    /** Inbound only: the last delivery of the webhook (null while none has answered, or with no SmsUrl). */
    webhook: last ? { url: last.url, status: last.status, body: last.body } : null,
  };
}

export type PhoneMessage = ReturnType<typeof phoneMessage>;

/** Every number of every account that takes texts or calls, the demo account's first: what a phone can reach. */
export function phoneNumbers(store: EmulatorStore) {
  const accounts = [...store.accounts].sort((a, b) => Number(b.demo) - Number(a.demo));
  return accounts.flatMap((account) =>
    account.numbers
      .filter((n) => n.capabilities.sms || n.capabilities.voice)
      .map((n) => ({
        phoneNumber: n.phoneNumber,
        friendlyName: n.friendlyName,
        accountSid: account.sid,
        accountName: account.friendlyName,
        demo: account.demo,
        sms: n.capabilities.sms,
        voice: n.capabilities.voice,
      })),
  );
}

/**
 * A call as the phone sees it: `outgoing` when the phone called the number (the call itself),
 * `incoming` when a `<Dial><Number>` rings the phone (the leg); the other party, its status, when it
 * was answered and ended, and what the product's TwiML said on the phone's own call.
 */
export function phoneCall(call: CallRecord) {
  const outgoing = call.parentCallSid === null;
  return {
    sid: call.sid,
    kind: outgoing ? ('outgoing' as const) : ('incoming' as const),
    party: outgoing ? call.to : call.from,
    status: call.status,
    dateCreated: call.dateCreated,
    answeredAt: call.answeredAt,
    endTime: call.endTime,
    said: call.said,
  };
}

export type PhoneCall = ReturnType<typeof phoneCall>;

/** The phone's calls to the number, and every call ringing the phone, oldest first. */
function callsOf(store: EmulatorStore, phone: string, number: string): PhoneCall[] {
  return store.accounts
    .flatMap((account) => account.calls)
    .filter((c) => isPhoneCall(c, phone, number))
    .sort((a, b) => a.dateCreated.localeCompare(b.dateCreated))
    .map(phoneCall);
}

function isPhoneCall(call: CallRecord, phone: string, number: string) {
  return call.parentCallSid === null ? call.from === phone && call.to === number : call.to === phone;
}

/** The texts between an outside phone and an account's number, both ways, oldest first. */
function conversation(store: EmulatorStore, phone: string, number: string): PhoneMessage[] {
  const account = store.findNumber(number)?.account;
  return (account?.messages ?? []).filter((m) => isBetween(m, phone, number)).map(phoneMessage);
}

function isBetween(message: MessageRecord, phone: string, number: string) {
  return message.direction === 'inbound'
    ? message.from === phone && message.to === number
    : message.to === phone && message.from === number;
}

/**
 * The phone simulator's data, under `/_emulator/phone/`: `numbers`, `conversation?phone=&number=`
 * (texts and calls), and `events?phone=&number=`, a stream of Server-Sent Events (the whole
 * conversation first, then each new or changed message or call) so the page shows every status as
 * it happens without polling. Answers whether it handled the request.
 */
export function answerPhoneRequest(
  services: { store: EmulatorStore; events: EmulatorEvents },
  req: IncomingMessage,
  res: ServerResponse,
  target: URL,
): boolean {
  const { store, events } = services;
  const route = /^\/_emulator\/phone\/(numbers|conversation|events)$/.exec(target.pathname)?.[1];
  if (!route) return false;
  if (req.method !== 'GET') {
    json(res, 405, { error: `${req.method} is not allowed here.` });
    return true;
  }
  if (route === 'numbers') {
    json(res, 200, { numbers: phoneNumbers(store) });
    return true;
  }
  const phone = target.searchParams.get('phone') ?? '';
  const number = target.searchParams.get('number') ?? '';
  if (!/^\+[1-9]\d{6,14}$/.test(phone) || !store.findNumber(number)) {
    json(res, 400, { error: 'Give phone (E.164, e.g. +14155550199) and number (a number of an emulator account).' });
    return true;
  }
  if (route === 'conversation') {
    json(res, 200, { phone, number, messages: conversation(store, phone, number), calls: callsOf(store, phone, number) });
    return true;
  }

  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
  });
  const event = (name: string, data: unknown) => res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  event('conversation', { phone, number, messages: conversation(store, phone, number), calls: callsOf(store, phone, number) });
  const onMessage = (_account: AccountRecord, message: MessageRecord) => {
    if (isBetween(message, phone, number)) event('message', phoneMessage(message));
  };
  const onCall = (_account: AccountRecord, call: CallRecord) => {
    if (isPhoneCall(call, phone, number)) event('call', phoneCall(call));
  };
  const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  events.on('message', onMessage);
  events.on('call', onCall);
  res.on('close', () => {
    clearInterval(keepAlive);
    events.off('message', onMessage);
    events.off('call', onCall);
  });
  return true;
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}
