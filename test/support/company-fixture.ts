import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { vi } from 'vitest';
import type { Contact } from '../../shared/contract/contacts';
import type { Invitation } from '../../shared/contract/team';
import { type Account, callRoute, signUp, uniqueEmail } from './api';
import { endpoints } from './endpoints';
import { createInbox } from './settings';
import { newPhone, readConversation, type SmsLine, sendText, smsLine, textIn, webhookIdOf } from './sms';
import { testTable } from './table';
import { addTeamMember, invite } from './team';
import { advanceCall, callFromPhone, hangUpCall, speakOnCall, type TwilioAccount } from './twilio';
import { addInboxMember, listCalls, routeChannel } from './voice';

/**
 * A company with one of everything, made the way users make it: an owner and an agent, an agent who
 * belongs to no inbox (the stranger inside the company: docs/product.md: Who sees what), a pending
 * invitation, a connected Twilio account with a number imported as a channel and routed to an inbox
 * both belong to, a contact, a conversation with an inbound and an outbound message, and a finished
 * call nobody answered, with its voicemail. Everything asynchronous (status callbacks, the call's end) has settled when it resolves.
 */
export interface CompanyFixture {
  owner: Account;
  agent: Account;
  /** An AGENT of the company in no inbox: they see none of its conversations, calls or voicemails. */
  stranger: Account;
  line: SmsLine;
  /** The id in the provider's webhook paths, which Twilio knows from the number's URLs. */
  webhookId: string;
  inboxId: string;
  invitation: Invitation;
  contact: Contact;
  conversationId: string;
  /**
   * The fixture's value for a path parameter, by the path segment before it and its name
   * (`inboxes/{id}`, `members/{userId}`): `/api/v1/inboxes/{id}` names an inbox, `/users/{id}` a user.
   */
  pathIds: Record<string, string>;
}

const TERMINAL_MESSAGE = ['DELIVERED', 'UNDELIVERED', 'FAILED'];
const TERMINAL_CALL = ['COMPLETED', 'FAILED', 'NO_ANSWER', 'BUSY'];

/** `twilio`: the emulator account to connect (a fresh one otherwise), e.g. to read its numbers before. */
export async function companyWithEverything(
  companyName: string,
  options: { twilio?: TwilioAccount } = {},
): Promise<CompanyFixture> {
  const owner = await signUp({ companyName });
  const [line, agent, stranger, invitation, inbox] = await Promise.all([
    smsLine({ account: owner, twilio: options.twilio }),
    addTeamMember(owner, { name: 'Agent Smith' }),
    addTeamMember(owner, { name: 'Agent Outsider' }),
    invite(owner, uniqueEmail('pending')),
    createInbox(owner, 'Support'),
  ]);
  const token = owner.tokens.accessToken;
  await addInboxMember(owner, inbox.id, owner.user.id);
  await addInboxMember(owner, inbox.id, agent.user.id);
  await routeChannel(owner, line.channel, 'INBOX', inbox.id);

  const created = await callRoute(endpoints.createContact, {
    token,
    body: { name: `${companyName} customer`, phoneNumber: newPhone(), email: uniqueEmail('customer'), notes: 'VIP' },
  });
  if (created.status !== 201) throw new Error(`contact: ${JSON.stringify(created.body)}`);
  const contact = created.body.data.contact;

  const inbound = await textIn(line, { from: contact.phoneNumber, body: 'Hello, is anyone there?' });
  if (inbound.status !== 200) throw new Error(`inbound text: ${inbound.status} ${inbound.text}`);
  const conversations = await callRoute(endpoints.listConversations, { token });
  const conversationId = conversations.body.data.conversations[0]?.id;
  if (!conversationId) throw new Error('the inbound text made no conversation');
  const reply = await sendText(owner, conversationId, 'Yes, how can we help?');
  if (reply.status !== 201) throw new Error(`reply: ${JSON.stringify(reply.body)}`);

  // Nobody answers: no member's phone is ready, so the caller goes to voicemail at once (a ring, were
  // one under way, would time out first), leaves a short one, then hangs up.
  const call = await callFromPhone({ from: contact.phoneNumber, to: line.channel.identifier });
  if (call.legs.some((l) => l.status === 'ringing')) await advanceCall(call.sid);
  await speakOnCall(call.sid, 2);
  await hangUpCall(call.sid);

  // Settled: the reply's status callbacks and the call's end would otherwise change the company meanwhile.
  await vi.waitFor(
    async () => {
      const status = (await readConversation(owner, conversationId)).body.data.conversation.messages.at(-1)?.status;
      if (!TERMINAL_MESSAGE.includes(String(status))) throw new Error(`the reply is still ${status}`);
    },
    { timeout: 15_000, interval: 50 },
  );
  const finishedCall = await vi.waitFor(
    async () => {
      const found = (await listCalls(owner)).body.data.calls[0];
      if (!TERMINAL_CALL.includes(String(found?.callStatus))) throw new Error(`the call is still ${found?.callStatus}`);
      if (!found?.voicemail) throw new Error('the voicemail is not on the call yet');
      return found;
    },
    { timeout: 15_000, interval: 50 },
  );

  const webhookId = webhookIdOf(line);
  return {
    owner,
    agent,
    stranger,
    line,
    webhookId,
    inboxId: inbox.id,
    invitation,
    contact,
    conversationId,
    pathIds: {
      'providers/{id}': line.provider.id,
      'channels/{id}': line.channel.id,
      'inboxes/{id}': inbox.id,
      'members/{userId}': agent.user.id,
      'users/{id}': agent.user.id,
      'invitations/{id}': invitation.id,
      'contacts/{id}': contact.id,
      'conversations/{id}': conversationId,
      'messages/{messageId}': reply.body.data.message.id,
      // A message's media item: the index within the message.
      'media/{index}': '0',
      // The call, with its voicemail.
      'calls/{id}': finishedCall.id,
      // The same call by its CallSid, as the widget knows it (recording, docs/product.md: Hold).
      'calls/{callId}': finishedCall.providerCallId,
      'twilio/{webhookId}': webhookId,
      'companies/{id}': owner.company.id,
    },
  };
}

/** The key of a path parameter in `pathIds`: the segment before it and the parameter. */
export const pathIdKeys = (template: string): string[] =>
  [...template.matchAll(/([^/]+)\/\{(\w+)\}/g)].map((m) => `${m[1]}/{${m[2]}}`);

/**
 * The path with each parameter filled from `ids`; throws, naming the parameter, for one nobody taught
 * (a new route whose ids the tests do not know yet).
 */
export function fillPath(template: string, ids: Record<string, string>): string {
  return template.replace(/([^/]+)\/\{(\w+)\}/g, (_, segment: string, param: string) => {
    const id = ids[`${segment}/{${param}}`];
    if (id === undefined) {
      throw new Error(
        `${template}: no id for ${segment}/{${param}}; teach the fixture (company-fixture.ts pathIds) which item it names`,
      );
    }
    return `${segment}/${encodeURIComponent(id)}`;
  });
}

/**
 * Every item of the company as the table holds it: its partition, its contact-search partition and
 * each conversation's message partition, sorted.
 */
export async function companyItems(companyId: string, conversationIds: readonly string[]): Promise<Record<string, unknown>[]> {
  const { client, tableName } = testTable();
  const partition = async (pk: string) => {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ExclusiveStartKey: start,
        }),
      );
      items.push(...((page.Items ?? []) as Record<string, unknown>[]));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  };
  const pks = [
    `COMPANY#${companyId}`,
    `COMPANY#${companyId}#CONTACTSEARCH`,
    ...conversationIds.map((id) => `COMPANY#${companyId}#CONV#${id}`),
  ];
  return (await Promise.all(pks.map(partition))).flat();
}
