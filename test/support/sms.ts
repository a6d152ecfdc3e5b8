import { randomInt } from 'node:crypto';
import { twilioSignature } from '@switchboard/twilio-emulator/signature';
import { afterEach, expect } from 'vitest';
import type { Message } from '../../shared/contract/conversations';
import { matchPath } from '../../shared/contract/route';
import type { Channel, Provider } from '../../shared/contract/settings';
import { type Account, type ApiResponse, callRoute, signUp, unchecked } from './api';
import { endpoints } from './endpoints';
import { openSocket, type Socket } from './realtime';
import { withChannel } from './settings';
import { inboundParams, newMessageSid, statusParams } from './sms-webhook';
import { numberOf, type TwilioAccount } from './twilio';

export { inboundParams, newMessageSid, statusParams };

/**
 * For a test file's top level: `listen(line)` opens a socket of the line's company, as a signed-in
 * user's browser would; every socket opened in a test is closed after it.
 */
export function socketsClosedAfterEach() {
  const sockets: Socket[] = [];
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((s) => s.close()));
  });
  return async function listen(line: Pick<SmsLine, 'account'>): Promise<Socket> {
    const socket = await openSocket(line.account);
    sockets.push(socket);
    return socket;
  };
}

/** A company texting through its imported voice+SMS number, and the webhook URL Twilio has for it. */
export interface SmsLine {
  account: Account;
  provider: Provider;
  channel: Channel;
  twilio: TwilioAccount;
  /** The number's SmsUrl, as the import set it in Twilio. */
  smsUrl: string;
}

/** The provider's webhook id in a line's SmsUrl, read by the inbound SMS webhook's path. */
export function webhookIdOf(line: Pick<SmsLine, 'smsUrl'>): string {
  const webhookId = matchPath(endpoints.inboundSmsWebhook.path, new URL(line.smsUrl).pathname)?.webhookId;
  if (!webhookId) throw new Error(`${line.smsUrl} is no inbound SMS webhook's URL`);
  return webhookId;
}

export async function smsLine(options: { account?: Account; twilio?: TwilioAccount } = {}): Promise<SmsLine> {
  const owner = options.account ?? (await signUp());
  const { provider, channel, twilio } = await withChannel(owner, options.twilio);
  const number = twilio.numbers.find((n) => n.phone_number === channel.identifier);
  if (!number) throw new Error(`${channel.identifier} is not a number of ${twilio.accountSid}`);
  const { sms_url } = await numberOf(twilio, number.sid);
  return { account: owner, provider, channel, twilio, smsUrl: sms_url };
}

/**
 * An outside phone (a customer's) no earlier call of this file used: numbered on from a random start, since random picks out
 * of 10,000 repeat within a few hundred (a repeat finds the contact an earlier test made).
 */
let nextPhone = randomInt(0, 10_000);
export const newPhone = () => `+1202555${String(nextPhone++ % 10_000).padStart(4, '0')}`;

export interface WebhookAnswer {
  status: number;
  contentType: string | null;
  text: string;
}

/**
 * Posts form parameters as Twilio does, signed with the auth token for `signedUrl` (the URL posted
 * to, unless given); `signature` replaces the computed one, null sends none.
 */
export async function postWebhook(
  url: string,
  params: Record<string, string>,
  options: { authToken: string; signedUrl?: string; signature?: string | null },
): Promise<WebhookAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const signature =
    options.signature === undefined ? twilioSignature(options.authToken, options.signedUrl ?? url, params) : options.signature;
  if (signature !== null) headers['x-twilio-signature'] = signature;
  const res = await fetch(url, { method: 'POST', headers, body: new URLSearchParams(params).toString() });
  return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() };
}

/** A phone texts the line: the signed inbound webhook, as Twilio posts it to the number's SmsUrl. */
export function textIn(line: SmsLine, text: { from: string; body: string; sid?: string }): Promise<WebhookAnswer> {
  return postWebhook(line.smsUrl, inboundParams(line, text), { authToken: line.twilio.authToken });
}

/** The phone texts the line, and the company's socket hears it: the conversation it landed in. */
export async function conversationWith(line: SmsLine, socket: Socket, phone: string, body = 'Hi there') {
  const answer = await textIn(line, { from: phone, body });
  if (answer.status !== 200) throw new Error(`inbound text: ${answer.status} ${answer.text}`);
  const event = await socket.next(
    'new_message',
    (e) => e.data.conversation.contact.phoneNumber === phone && e.data.message.body === body,
  );
  return event.data.conversationId;
}

export async function readConversation(account: Account, conversationId: string, before?: string) {
  return callRoute(endpoints.getConversation, {
    params: { id: conversationId },
    query: { before },
    token: account.tokens.accessToken,
  });
}

export function sendText(account: Account, conversationId: string, body: unknown): Promise<ApiResponse<{ message: Message }>> {
  return callRoute(endpoints.sendMessage, {
    params: { id: conversationId },
    token: account.tokens.accessToken,
    body: { body: unchecked(body) },
  });
}

export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

/** Every message of the thread, oldest first, paging back through `before`. */
export async function wholeThread(account: Account, conversationId: string) {
  const pages: Message[][] = [];
  let before: string | undefined;
  let conversation: Awaited<ReturnType<typeof readConversation>>['body']['data']['conversation'] | undefined;
  do {
    const read = await readConversation(account, conversationId, before);
    expect(read.status).toBe(200);
    conversation ??= read.body.data.conversation;
    pages.unshift(read.body.data.conversation.messages);
    before = read.body.data.conversation.olderCursor ?? undefined;
  } while (before);
  return { conversation: conversation as NonNullable<typeof conversation>, messages: pages.flat() };
}
