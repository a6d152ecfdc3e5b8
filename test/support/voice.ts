import { randomBytes } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { keys, TTL_ATTRIBUTE } from '../../functions/lib/table';
import { VOICE_TOKEN_LIMIT, VOICE_TOKEN_WINDOW_SECONDS } from '../../shared/constants';
import type { ContractOf } from '../../shared/contract/route';
import type { Channel } from '../../shared/contract/settings';
import { type Account, type CallOptions, callRoute, signUp, stack } from './api';
import { endpoints } from './endpoints';
import { openSocket } from './realtime';
import { createInbox, withChannel } from './settings';
import { postWebhook } from './sms';
import { stackClock } from './stack-clock';
import { testTable } from './table';
import { addTeamMember } from './team';
import { numberOf } from './twilio';

/** Routes a channel as Settings → Channels does. */
export async function routeChannel(
  account: Account,
  channel: Pick<Channel, 'id'>,
  routingType: 'UNASSIGNED' | 'INBOX' | 'USER',
  routingTargetId: string | null = null,
): Promise<void> {
  const res = await callRoute(endpoints.updateChannelRouting, {
    params: { id: channel.id },
    token: account.tokens.accessToken,
    body: { routingType, routingTargetId },
  });
  if (res.status !== 200) throw new Error(`routing: ${JSON.stringify(res.body)}`);
}

export async function addInboxMember(account: Account, inboxId: string, userId: string): Promise<void> {
  const res = await callRoute(endpoints.addInboxMember, {
    params: { id: inboxId },
    token: account.tokens.accessToken,
    body: { userId },
  });
  if (res.status !== 201 && res.status !== 200) throw new Error(`add member: ${JSON.stringify(res.body)}`);
}

/** The Voice SDK identity the product gives a user (derived from the id alone). */
export const identityOf = (account: Account) => `user_${account.user.id.replaceAll('-', '_')}`;

/**
 * Waits until the account's member can take calls: their tab's phone is ready (docs/product.md §10.5),
 * so a call rings them rather than going to voicemail at once.
 */
export async function phoneReady(account: Account): Promise<void> {
  await expect
    .poll(
      async () =>
        (await callRoute(endpoints.listUsers, { token: account.tokens.accessToken })).body.data?.users.find(
          (u) => u.id === account.user.id,
        )?.phoneReady,
      { timeout: 30_000 },
    )
    .toBe(true);
}

/**
 * Waits until the emulator's status page lists the account's one browser device as registered, and
 * the tab has told the server so (`phoneReady`).
 */
export async function deviceRegistered(account: Account): Promise<void> {
  const identity = identityOf(account);
  await expect
    .poll(async () => (await (await fetch(`${stack().urls.twilio}/`)).text()).includes(`${identity} (1 device)`), {
      timeout: 30_000,
    })
    .toBe(true);
  await phoneReady(account);
}

export async function voiceToken(account: Account): Promise<string> {
  const res = await callRoute(endpoints.voiceToken, { token: account.tokens.accessToken });
  if (res.status !== 200) throw new Error(`voice token: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.token;
}

/**
 * A company whose voice number rings an inbox of `members` people (the owner first), each with an open
 * socket whose phone is reported ready, as the web app reports a registered device (`phonesReady: false`: none is).
 */
export async function voiceLine(
  options: { members?: number; routing?: 'INBOX' | 'USER' | 'UNASSIGNED'; phonesReady?: boolean } = {},
) {
  const owner = await signUp();
  const { provider, channel, twilio } = await withChannel(owner);
  const colleagues = await Promise.all(
    Array.from({ length: Math.max(0, (options.members ?? 1) - 1) }, (_, i) => addTeamMember(owner, { name: `Agent ${i + 2}` })),
  );
  const agents = [owner, ...colleagues];
  const inbox = await createInbox(owner, 'Support');
  for (const agent of agents) await addInboxMember(owner, inbox.id, agent.user.id);
  const routing = options.routing ?? 'INBOX';
  if (routing === 'INBOX') await routeChannel(owner, channel, 'INBOX', inbox.id);
  if (routing === 'USER') await routeChannel(owner, channel, 'USER', owner.user.id);
  const sockets = await Promise.all(agents.map((a) => openSocket(a)));
  if (options.phonesReady !== false) await Promise.all(sockets.map((s) => s.phone(true)));
  return { owner, agents, sockets, provider, channel, twilio, inbox };
}

export async function listCalls(account: Account, query: CallOptions<ContractOf<typeof endpoints.listCalls>>['query'] = {}) {
  return callRoute(endpoints.listCalls, { query, token: account.tokens.accessToken });
}

export const newCallSid = () => `CA${randomBytes(16).toString('hex')}`;

/** A line and the voice URLs Twilio has for its number, to post Twilio's requests as Twilio would. */
export async function signedLine(members = 2) {
  const line = await voiceLine({ members });
  const number = line.twilio.numbers.find((n) => n.phone_number === line.channel.identifier);
  if (!number) throw new Error('the channel is not a number of the account');
  const { voice_url } = await numberOf(line.twilio, number.sid);
  const post = (path: string, params: Record<string, string>) =>
    postWebhook(`${voice_url}${path}`, params, { authToken: line.twilio.authToken });
  return { ...line, voiceUrl: voice_url, post };
}

export function inboundParams(
  line: Pick<Awaited<ReturnType<typeof signedLine>>, 'twilio' | 'channel'>,
  callSid: string,
  from: string,
) {
  return {
    AccountSid: line.twilio.accountSid,
    ApiVersion: '2010-04-01',
    CallSid: callSid,
    CallStatus: 'ringing',
    Direction: 'inbound',
    From: from,
    Caller: from,
    To: line.channel.identifier,
    Called: line.channel.identifier,
  };
}

/**
 * Takes the account's user past the calling-token limit by real requests (POST /voice/token until
 * 429). The throttle window is fixed (VOICE_TOKEN_WINDOW_SECONDS), so the next one is filled too and
 * the caller does not depend on where in the window it runs; windows are the stack's clock's, which
 * other tests may have moved ahead of this process's (clock-control.ts). Answers the way back: the
 * windows emptied, as if they had passed.
 */
export async function exhaustVoiceTokens(account: Account): Promise<() => Promise<void>> {
  const nowMs = stack().clock ? (await stackClock()).nowMs : Date.now();
  const window = Math.floor(nowMs / 1000 / VOICE_TOKEN_WINDOW_SECONDS);
  const { client, tableName } = testTable();
  const counter = (w: number) => keys.throttle('voice-token', account.user.id, w);
  await client.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...counter(window + 1), count: VOICE_TOKEN_LIMIT, [TTL_ATTRIBUTE]: Math.floor(nowMs / 1000) + 3600 },
    }),
  );
  let status = 0;
  while (status !== 429) {
    status = (await callRoute(endpoints.voiceToken, { token: account.tokens.accessToken })).status;
    expect([200, 429]).toContain(status);
  }
  return async () => {
    for (const w of [window, window + 1]) await client.send(new DeleteCommand({ TableName: tableName, Key: counter(w) }));
  };
}
