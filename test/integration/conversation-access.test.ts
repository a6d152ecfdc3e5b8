import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConversationRecord } from '../../functions/conversations/records';
import { keys } from '../../functions/lib/table';
import { notAssignableMessage } from '../../shared/contract/conversations';
import type { Channel } from '../../shared/contract/settings';
import { type Account, callRoute, signUp } from '../support/api';
import { seedConversations } from '../support/conversations';
import { endpoints } from '../support/endpoints';
import { createInbox } from '../support/settings';
import { newPhone, readConversation, type SmsLine, smsLine } from '../support/sms';
import { testTable } from '../support/table';
import { addTeamMember } from '../support/team';
import { addNote, markRead } from '../support/team-inbox';
import { textFromPhone } from '../support/twilio';
import { addInboxMember, routeChannel } from '../support/voice';

/**
 * Who sees what on the conversation id routes (docs/product.md: Who sees what): a company with a Sales
 * and a Support inbox, a member's private line and a number routed to nobody, one conversation on each.
 * Owners and admins reach every one; an agent only those of their inbox or their line, or assigned to
 * them, or where a note mentioned them; everything else answers 404 exactly as a conversation that
 * does not exist. Assignment goes only to a member who sees the conversation without it.
 */

type Where = 'sales' | 'support' | 'line' | 'unassigned';

let ada: Account; // owner
let alan: Account; // admin
let sally: Account; // agent in Sales
let sam: Account; // agent in Support
let lena: Account; // agent whose private line is a number
let otto: Account; // agent in no inbox
let salesLine: SmsLine;
const channels = {} as Record<Where, Pick<Channel, 'id' | 'identifier'>>;
const conversationIds = {} as Record<Where, string>;
/** The Sales conversation's picture: its message. */
let pictureMessageId: string;

const ref = (account: Account) => ({ id: account.user.id, name: account.user.name });

/**
 * Another number of the company, as the product stores a channel: a copy of the line's imported one
 * (same provider), routed as given. Twilio never texts it: its conversation is seeded.
 */
async function anotherNumber(routingType: 'INBOX' | 'USER' | 'UNASSIGNED', routingTargetId: string | null) {
  const { client, tableName } = testTable();
  const companyId = ada.company.id;
  const { Item } = await client.send(
    new GetCommand({ TableName: tableName, Key: keys.channel(companyId, salesLine.channel.id) }),
  );
  const id = randomUUID();
  const identifier = newPhone();
  await client.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...Item, ...keys.channel(companyId, id), id, identifier, numberSid: null, routingType, routingTargetId },
    }),
  );
  return { id, identifier };
}

beforeAll(async () => {
  ada = await signUp({ companyName: 'Who Sees What Co', name: 'Ada Lovelace' });
  let sales: { id: string };
  let support: { id: string };
  [salesLine, alan, sally, sam, lena, otto, sales, support] = await Promise.all([
    smsLine({ account: ada }),
    addTeamMember(ada, { name: 'Alan Admin', role: 'ADMIN' }),
    addTeamMember(ada, { name: 'Sally Sales' }),
    addTeamMember(ada, { name: 'Sam Support' }),
    addTeamMember(ada, { name: 'Lena Line' }),
    addTeamMember(ada, { name: 'Otto Outside' }),
    createInbox(ada, 'Sales'),
    createInbox(ada, 'Support'),
  ]);
  await Promise.all([addInboxMember(ada, sales.id, sally.user.id), addInboxMember(ada, support.id, sam.user.id)]);
  await routeChannel(ada, salesLine.channel, 'INBOX', sales.id);
  channels.sales = salesLine.channel;
  channels.support = await anotherNumber('INBOX', support.id);
  channels.line = await anotherNumber('USER', lena.user.id);
  channels.unassigned = await anotherNumber('UNASSIGNED', null);

  // A customer's picture to Sales, through Twilio; the other numbers' conversations as the product stores them.
  await textFromPhone({
    from: newPhone(),
    to: salesLine.channel.identifier,
    body: 'The dent',
    media: [{ contentType: 'image/png' }],
  });
  const listed = await callRoute(endpoints.listConversations, { token: ada.tokens.accessToken });
  const onSales = listed.body.data.conversations.find((c) => c.channel.id === salesLine.channel.id);
  if (!onSales) throw new Error('the picture made no conversation');
  conversationIds.sales = onSales.id;
  const thread = await readConversation(ada, onSales.id);
  pictureMessageId = thread.body.data.conversation.messages[0]?.id ?? '';
  for (const [i, where] of (['support', 'line', 'unassigned'] as const).entries()) {
    const [seeded] = await seedConversations(testTable(), ada.company.id, channels[where], [{ at: new Date() }], i);
    conversationIds[where] = (seeded as ConversationRecord).id;
  }
}, 120_000);

/** What every route answers for a conversation that does not exist: the hidden ones answer the same. */
const NOT_FOUND = { success: false, error: { code: 'NOT_FOUND', message: 'Conversation not found' } };

const ROLES = [
  'the owner',
  'an admin',
  'a Sales agent',
  'a Support agent',
  'the private line’s agent',
  'an agent in no inbox',
] as const;

/** Each role's member and the conversations they see. */
function role(who: (typeof ROLES)[number]): [Account, readonly Where[]] {
  const everything: Where[] = ['sales', 'support', 'line', 'unassigned'];
  const byRole: Record<(typeof ROLES)[number], [Account, Where[]]> = {
    'the owner': [ada, everything],
    'an admin': [alan, everything],
    'a Sales agent': [sally, ['sales']],
    'a Support agent': [sam, ['support']],
    'the private line’s agent': [lena, ['line']],
    'an agent in no inbox': [otto, []],
  };
  return byRole[who];
}

describe('each role, route by route', () => {
  it('a conversation that does not exist answers 404 with the one sentence every hidden one gets', async () => {
    expect((await readConversation(ada, randomUUID())).body).toEqual(NOT_FOUND);
  });

  it.each(ROLES)('%s: detail and thread, notes, read, status and assignee answer 200 or 404', async (who) => {
    const [account, sees] = role(who);
    const token = account.tokens.accessToken;
    for (const where of ['sales', 'support', 'line', 'unassigned'] as const) {
      const id = conversationIds[where];
      const visible = sees.includes(where);
      const label = `${who} on the ${where} conversation`;
      const answers = {
        note: await addNote(account, id, `Seen by ${account.user.name}`),
        read: await markRead(account, id),
        status: await callRoute(endpoints.updateConversationStatus, { params: { id }, token, body: { status: 'OPEN' } }),
        assignee: await callRoute(endpoints.assignConversation, { params: { id }, token, body: { userId: null } }),
        // Last: the thread then holds the note just written.
        detail: await readConversation(account, id),
      };
      const statuses = Object.fromEntries(Object.entries(answers).map(([route, res]) => [route, res.status]));
      expect(statuses, label).toEqual(
        visible
          ? { detail: 200, note: 201, read: 200, status: 200, assignee: 200 }
          : { detail: 404, note: 404, read: 404, status: 404, assignee: 404 },
      );
      if (visible) {
        expect(
          answers.detail.body.data.conversation.messages.map((m) => m.body),
          label,
        ).toContain(`Seen by ${account.user.name}`);
      } else {
        for (const [route, res] of Object.entries(answers)) expect(res.body, `${label}: ${route}`).toEqual(NOT_FOUND);
      }
    }
  });

  it.each(ROLES)('%s: the Sales picture is served to those who see its conversation, not found for others', async (who) => {
    const [account, sees] = role(who);
    const params = { id: conversationIds.sales, messageId: pictureMessageId, index: '0' };
    const media = await callRoute(endpoints.messageMedia, { params, token: account.tokens.accessToken });
    if (sees.includes('sales')) {
      expect(media.status, who).toBe(200);
      expect(media.headers.get('content-type')).toBe('image/png');
    } else {
      expect(media.status, who).toBe(404);
      // As a picture that does not exist.
      expect(media.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'Media not found' } });
    }
  });

  it('an agent is offered only the numbers whose conversations they will see', async () => {
    const numbers = async (account: Account) =>
      (await callRoute(endpoints.listSendingNumbers, { token: account.tokens.accessToken })).body.data.sendingNumbers.map(
        (n) => n.channelId,
      );
    expect(await numbers(sally)).toEqual([channels.sales.id]);
    expect(await numbers(otto)).toEqual([]);
    // The unassigned number is the managers' (they alone see what comes in on it).
    expect(await numbers(ada)).toContain(channels.unassigned.id);
  });
});

describe('the detail names who may be assigned or mentioned', () => {
  it('owners, admins and the agents who see the conversation without an assignment, by name', async () => {
    const members = async (where: Where) => (await readConversation(ada, conversationIds[where])).body.data.conversation.members;
    expect(await members('sales')).toEqual([ref(ada), ref(alan), ref(sally)]);
    expect(await members('support')).toEqual([ref(ada), ref(alan), ref(sam)]);
    expect(await members('line')).toEqual([ref(ada), ref(alan), ref(lena)]);
    expect(await members('unassigned')).toEqual([ref(ada), ref(alan)]);
  });
});

describe('assignment', () => {
  const assign = (who: Account, where: Where, userId: string | null) =>
    callRoute(endpoints.assignConversation, {
      params: { id: conversationIds[where] },
      token: who.tokens.accessToken,
      body: { userId },
    });

  it('goes to a member who sees the conversation; anyone else is refused with a sentence, and nothing changes', async () => {
    const refusals: [Where, Account, 'INBOX' | 'USER' | 'UNASSIGNED'][] = [
      ['sales', sam, 'INBOX'],
      ['sales', otto, 'INBOX'],
      ['line', sally, 'USER'],
      ['unassigned', sally, 'UNASSIGNED'],
    ];
    for (const [where, member, routing] of refusals) {
      const refused = await assign(ada, where, member.user.id);
      expect(refused.status, `${member.user.name} on ${where}`).toBe(409);
      expect(refused.body.error).toEqual({ code: 'CONFLICT', message: notAssignableMessage(member.user.name, routing) });
      expect((await readConversation(ada, conversationIds[where])).body.data.conversation.assignee).toBeNull();
    }
    expect(notAssignableMessage('Sam Support', 'INBOX')).toBe(
      "Sam Support is not a member of this conversation's inbox, so they cannot be assigned it.",
    );

    for (const [where, member] of [
      ['sales', sally],
      ['line', lena],
      ['unassigned', alan],
      ['support', ada],
    ] as const) {
      const res = await assign(ada, where, member.user.id);
      expect(res.status, `${member.user.name} on ${where}`).toBe(200);
      expect(res.body.data.conversation.assignee).toEqual(ref(member));
    }
    // A refused assignment lets nobody see anything: the conversations stay hidden from them.
    expect((await readConversation(sam, conversationIds.sales)).status).toBe(404);
    expect((await readConversation(sally, conversationIds.unassigned)).status).toBe(404);
    await Promise.all((['sales', 'line', 'unassigned', 'support'] as const).map((where) => assign(ada, where, null)));
  });

  it("a removed member's conversations go to the member chosen where they see them, and to Unassigned elsewhere", async () => {
    const rita = await addTeamMember(ada, { name: 'Rita Leaving' });
    const seeded = await Promise.all(
      (['sales', 'support'] as const).map((where) =>
        seedConversations(
          testTable(),
          ada.company.id,
          channels[where],
          [{ at: new Date(), assignee: ref(rita) }],
          where === 'sales' ? 9000 : 9001,
        ),
      ),
    );
    const [onSales, onSupport] = seeded.map((s) => (s[0] as ConversationRecord).id) as [string, string];
    const removed = await callRoute(endpoints.removeUser, {
      params: { id: rita.user.id },
      token: ada.tokens.accessToken,
      body: { reassignTo: sam.user.id },
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.data.conversations).toEqual({ moved: 2, complete: true });
    expect((await readConversation(ada, onSupport)).body.data.conversation.assignee).toEqual(ref(sam));
    expect((await readConversation(ada, onSales)).body.data.conversation.assignee).toBeNull();
    expect((await readConversation(sam, onSales)).status).toBe(404);
  });
});

describe('a note mentioning an agent who would not see the conversation', () => {
  it('lets them see it from then on, and offers them in its pickers; nobody else gains anything', async () => {
    const id = conversationIds.sales;
    expect((await readConversation(otto, id)).body).toEqual(NOT_FOUND);

    const note = await addNote(sally, id, '@Otto Outside can you check the dent? @Ada Lovelace FYI');
    expect(note.status).toBe(201);
    expect(note.body.data.message.mentions).toEqual([ref(otto), ref(ada)]);

    const seen = await readConversation(otto, id);
    expect(seen.status).toBe(200);
    expect(seen.body.data.conversation.unreadCount).toBe(1);
    expect((await markRead(otto, id)).status).toBe(200);
    expect((await readConversation(ada, id)).body.data.conversation.members).toEqual([
      ref(ada),
      ref(alan),
      ref(otto),
      ref(sally),
    ]);
    // Seeing it without an assignment, Otto may now be assigned it.
    const assigned = await callRoute(endpoints.assignConversation, {
      params: { id },
      token: ada.tokens.accessToken,
      body: { userId: otto.user.id },
    });
    expect(assigned.status).toBe(200);

    // The grant is Otto's alone, kept beside the conversation and on it; Ada saw it already.
    const { client, tableName } = testTable();
    const grant = async (userId: string) =>
      (await client.send(new GetCommand({ TableName: tableName, Key: keys.mentionGrant(ada.company.id, userId, id) }))).Item;
    expect(await grant(otto.user.id)).toMatchObject({ userId: otto.user.id, conversationId: id });
    expect(await grant(ada.user.id)).toBeUndefined();
    const stored = await client.send(new GetCommand({ TableName: tableName, Key: keys.conversation(ada.company.id, id) }));
    expect(stored.Item?.mentionedUserIds).toEqual([otto.user.id]);
    expect((await readConversation(sam, id)).status).toBe(404);
    expect((await readConversation(otto, conversationIds.support)).status).toBe(404);
  });

  it('a picture of a conversation the stranger was mentioned in is theirs to see too', async () => {
    const params = { id: conversationIds.sales, messageId: pictureMessageId, index: '0' };
    expect((await callRoute(endpoints.messageMedia, { params, token: otto.tokens.accessToken })).status).toBe(200);
    const support = { ...params, id: conversationIds.support };
    expect((await callRoute(endpoints.messageMedia, { params: support, token: otto.tokens.accessToken })).status).toBe(404);
  });
});
