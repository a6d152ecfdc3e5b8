import { randomUUID } from 'node:crypto';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { assigneeChannelCounter, type ConversationRecord, channelCounter } from '../../functions/conversations/records';
import { keys } from '../../functions/lib/table';
import type { ConversationPage } from '../../shared/contract/conversations';
import { type Account, callRoute } from '../support/api';
import { seedConversations } from '../support/conversations';
import { endpoints } from '../support/endpoints';
import { createInbox } from '../support/settings';
import { newPhone, type SmsLine, smsLine, textIn } from '../support/sms';
import { testTable } from '../support/table';
import { addTeamMember } from '../support/team';
import { listPage, unreadSummary } from '../support/team-inbox';
import { addInboxMember, routeChannel } from '../support/voice';

/**
 * Who sees what in the conversation list and the unread count (docs/product.md: Who sees what): owners
 * and admins see the whole company; an agent sees the channels routed to their inboxes or to them, what
 * is assigned to them, and what they were mentioned in, with totals and cursors that hold for that
 * view. Routing decides by the channel's routing now, earlier conversations included.
 */

interface Company {
  owner: Account;
  admin: Account;
  /** In inbox A, whose channel is the real number `line`. */
  agentA: Account;
  /** In inbox B, whose channel is `channelB`; mentioned in one conversation of the unassigned number. */
  agentB: Account;
  /** In no inbox. */
  stranger: Account;
  line: SmsLine;
  inboxA: string;
  inboxB: string;
  /** Conversations by where they are. */
  onLine: string[];
  onB: ConversationRecord[];
  onPrivate: ConversationRecord[];
  onUnassigned: ConversationRecord[];
  /** The unassigned number's conversation assigned to agent A (stored before the rule: visible by assignment). */
  assignedToA: ConversationRecord;
  /** The unassigned number's conversation agent B was mentioned in. */
  mentionedB: ConversationRecord;
  /** The owner's conversation on their private line, assigned to them. */
  ownersOwn: ConversationRecord;
}

/** A channel item as import stores one, routed so: conversations of it are seeded, not texted. */
async function storedChannel(companyId: string, routingType: 'INBOX' | 'USER' | 'UNASSIGNED', routingTargetId: string | null) {
  const { client, tableName } = testTable();
  const id = randomUUID();
  const identifier = newPhone().replace('+1202555', '+1415666');
  await client.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...keys.channel(companyId, id),
        entity: 'CHANNEL',
        id,
        companyId,
        type: 'PHONE',
        identifier,
        status: 'ACTIVE',
        capabilities: { voice: false, sms: true, mms: false },
        enabled: { voice: false, sms: true },
        providerId: null,
        numberSid: null,
        previousUrls: {},
        routingType,
        routingTargetId,
        createdAt: new Date().toISOString(),
      },
    }),
  );
  return { id, identifier };
}

async function companyOfInboxes(): Promise<Company> {
  const line = await smsLine();
  const owner = line.account;
  const [admin, agentA, agentB, stranger, inboxA, inboxB] = await Promise.all([
    addTeamMember(owner, { role: 'ADMIN', name: 'Ada Admin' }),
    addTeamMember(owner, { name: 'Alice Agent' }),
    addTeamMember(owner, { name: 'Bob Agent' }),
    addTeamMember(owner, { name: 'Sam Stranger' }),
    createInbox(owner, 'Sales'),
    createInbox(owner, 'Support'),
  ]);
  await Promise.all([addInboxMember(owner, inboxA.id, agentA.user.id), addInboxMember(owner, inboxB.id, agentB.user.id)]);
  await routeChannel(owner, line.channel, 'INBOX', inboxA.id);
  const companyId = owner.company.id;
  const [channelB, privateLine, unassigned] = await Promise.all([
    storedChannel(companyId, 'INBOX', inboxB.id),
    storedChannel(companyId, 'USER', owner.user.id),
    storedChannel(companyId, 'UNASSIGNED', null),
  ]);

  // Every conversation's last text after the members joined (unread for them all), a millisecond
  // apart, and before the real number's texts, which come in last.
  const t0 = Date.now() + 1;
  const at = (i: number) => new Date(t0 + i);
  const table = testTable();
  const ownerRef = { id: owner.user.id, name: owner.user.name };
  const onB = await seedConversations(
    table,
    companyId,
    channelB,
    [
      { at: at(1), status: 'OPEN' },
      { at: at(3), status: 'CLOSED' },
      { at: at(5), status: 'OPEN' },
      { at: at(7), status: 'CLOSED' },
    ],
    100,
  );
  const onPrivate = await seedConversations(
    table,
    companyId,
    privateLine,
    [
      { at: at(2), status: 'OPEN', assignee: ownerRef },
      { at: at(4), status: 'OPEN' },
    ],
    200,
  );
  const onUnassigned = await seedConversations(
    table,
    companyId,
    unassigned,
    [
      { at: at(6), status: 'OPEN', assignee: { id: agentA.user.id, name: agentA.user.name } },
      { at: at(8), status: 'OPEN' },
      { at: at(9), status: 'CLOSED' },
    ],
    300,
  );
  const mentionedB = onUnassigned[1] as ConversationRecord;
  await table.client.send(
    new PutCommand({
      TableName: table.tableName,
      Item: {
        ...keys.mentionGrant(companyId, agentB.user.id, mentionedB.id),
        entity: 'MENTION_GRANT',
        companyId,
        userId: agentB.user.id,
        conversationId: mentionedB.id,
      },
    }),
  );
  // The real number's conversations come in through the webhook, newest of all.
  const onLine: string[] = [];
  for (const body of ['First', 'Second', 'Third']) {
    const answer = await textIn(line, { from: newPhone(), body });
    expect(answer.status).toBe(200);
  }
  const ownerView = await listPage(owner, { limit: 100 });
  for (const c of ownerView.conversations) if (c.channel.id === line.channel.id) onLine.push(c.id);
  return {
    owner,
    admin,
    agentA,
    agentB,
    stranger,
    line,
    inboxA: inboxA.id,
    inboxB: inboxB.id,
    onLine,
    onB,
    onPrivate,
    onUnassigned,
    assignedToA: onUnassigned[0] as ConversationRecord,
    mentionedB,
    ownersOwn: onPrivate[0] as ConversationRecord,
  };
}

const ids = (page: ConversationPage) => page.conversations.map((c) => c.id);
const newestFirst = (records: ConversationRecord[]) =>
  [...records].sort((a, b) => (a.lastMessageAt < b.lastMessageAt ? 1 : -1)).map((c) => c.id);

/** Every page of a member's list by cursor, `limit` at a time. */
async function everyPage(who: Account, query: Parameters<typeof listPage>[1], limit: number) {
  const pages: ConversationPage[] = [];
  let cursor: string | undefined;
  do {
    const page = await listPage(who, { ...query, limit, cursor });
    pages.push(page);
    cursor = page.pagination.nextCursor ?? undefined;
  } while (cursor);
  return pages;
}

describe('the conversation list by who sees what', () => {
  let c: Company;
  beforeAll(async () => {
    c = await companyOfInboxes();
  });

  it('owners and admins list every conversation of the company, with its total', async () => {
    expect(c.onLine).toHaveLength(3);
    for (const who of [c.owner, c.admin]) {
      const page = await listPage(who, { limit: 100 });
      expect(page.total).toBe(12);
      expect(ids(page)).toEqual([...c.onLine, ...newestFirst([...c.onB, ...c.onPrivate, ...c.onUnassigned])]);
    }
  });

  it('an agent lists their inbox’s channel and what is assigned to them, nothing else; the total is theirs', async () => {
    const page = await listPage(c.agentA, { limit: 100 });
    expect(ids(page)).toEqual([...c.onLine, c.assignedToA.id]);
    expect(page.total).toBe(4);
  });

  it('an agent mentioned in a conversation of another number lists it beside their inbox’s', async () => {
    const page = await listPage(c.agentB, { limit: 100 });
    expect(ids(page)).toEqual(newestFirst([...c.onB, c.mentionedB]));
    expect(page.total).toBe(5);
  });

  it('an agent in no inbox lists nothing: not the private line, not the unassigned number', async () => {
    const page = await listPage(c.stranger, { limit: 100 });
    expect(page.conversations).toEqual([]);
    expect(page.total).toBe(0);
    expect(page.pagination.nextCursor).toBeNull();
  });

  it('filters by status within the agent’s view, with their totals', async () => {
    const open = await listPage(c.agentB, { status: 'OPEN', limit: 100 });
    const openOfB = c.onB.filter((x) => x.status === 'OPEN');
    expect(ids(open)).toEqual(newestFirst([...openOfB, c.mentionedB]));
    expect(open.total).toBe(3);
    const closed = await listPage(c.agentB, { status: 'CLOSED', limit: 100 });
    expect(ids(closed)).toEqual(newestFirst(c.onB.filter((x) => x.status === 'CLOSED')));
    expect(closed.total).toBe(2);
  });

  it('an assignee filter lists only what the agent sees: not the owner’s private conversations', async () => {
    const owners = await listPage(c.agentA, { assignee: c.owner.user.id, limit: 100 });
    expect(owners.conversations).toEqual([]);
    expect(owners.total).toBe(0);
    // The owner sees their own.
    expect(ids(await listPage(c.owner, { assignee: 'me', limit: 100 }))).toEqual([c.ownersOwn.id]);

    const mine = await listPage(c.agentA, { assignee: 'me', limit: 100 });
    expect(ids(mine)).toEqual([c.assignedToA.id]);
    expect(mine.total).toBe(1);

    const unassigned = await listPage(c.agentA, { assignee: 'unassigned', limit: 100 });
    expect(ids(unassigned)).toEqual(c.onLine);
    expect(unassigned.total).toBe(3);

    const unassignedForB = await listPage(c.agentB, { assignee: 'unassigned', status: 'OPEN', limit: 100 });
    expect(ids(unassignedForB)).toEqual(newestFirst([...c.onB.filter((x) => x.status === 'OPEN'), c.mentionedB]));
    expect(unassignedForB.total).toBe(3);
  });

  it('pages an agent’s view by cursor across its channels, assignments and mentions, and by offset', async () => {
    const whole = ids(await listPage(c.agentB, { limit: 100 }));
    const pages = await everyPage(c.agentB, {}, 2);
    expect(pages.map((p) => p.conversations.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap(ids)).toEqual(whole);
    expect(pages.map((p) => p.pagination.offset)).toEqual([0, 2, 4]);
    for (const p of pages) expect(p.total).toBe(5);

    const byOffset = await listPage(c.agentB, { offset: 2, limit: 2 });
    expect(ids(byOffset)).toEqual(whole.slice(2, 4));
    expect(ids(await listPage(c.agentB, { offset: 5, limit: 2 }))).toEqual([]);

    const agentA = ids(await listPage(c.agentA, { limit: 100 }));
    expect((await everyPage(c.agentA, {}, 3)).flatMap(ids)).toEqual(agentA);
  });

  it('counts unread only in what each member sees', async () => {
    // Open conversations with a text after the member joined: the owner's whole company's, an agent's own view's.
    expect(await unreadSummary(c.owner)).toEqual({ count: 9, complete: true });
    expect(await unreadSummary(c.agentA)).toEqual({ count: 4, complete: true });
    expect(await unreadSummary(c.agentB)).toEqual({ count: 3, complete: true });
    expect(await unreadSummary(c.stranger)).toEqual({ count: 0, complete: true });
    const unreadOfA = await listPage(c.agentA, { unread: 'true', limit: 100 });
    expect(ids(unreadOfA)).toEqual([...c.onLine, c.assignedToA.id]);
  });

  it('a channel routed from inbox A to inbox B takes its earlier conversations with it', async () => {
    await routeChannel(c.owner, c.line.channel, 'INBOX', c.inboxB);
    try {
      const a = await listPage(c.agentA, { limit: 100 });
      expect(ids(a)).toEqual([c.assignedToA.id]);
      expect(a.total).toBe(1);
      const b = await listPage(c.agentB, { limit: 100 });
      expect(ids(b)).toEqual([...c.onLine, ...newestFirst([...c.onB, c.mentionedB])]);
      expect(b.total).toBe(8);
      expect((await unreadSummary(c.agentA)).count).toBe(1);
      expect((await unreadSummary(c.agentB)).count).toBe(6);
    } finally {
      await routeChannel(c.owner, c.line.channel, 'INBOX', c.inboxA);
    }
  });

  it('a status change moves the conversation between its channel’s totals', async () => {
    const [closing] = c.onLine as [string];
    const closed = await callRoute(endpoints.updateConversationStatus, {
      params: { id: closing },
      token: c.owner.tokens.accessToken,
      body: { status: 'CLOSED' },
    });
    expect(closed.status).toBe(200);
    try {
      const open = await listPage(c.agentA, { status: 'OPEN', limit: 100 });
      expect(ids(open)).toEqual([...c.onLine.slice(1), c.assignedToA.id]);
      expect(open.total).toBe(3);
      const closedList = await listPage(c.agentA, { status: 'CLOSED', limit: 100 });
      expect(ids(closedList)).toEqual([closing]);
      expect(closedList.total).toBe(1);
    } finally {
      await callRoute(endpoints.updateConversationStatus, {
        params: { id: closing },
        token: c.owner.tokens.accessToken,
        body: { status: 'OPEN' },
      });
    }
  });

  it('a conversation stored before the channel index joins an agent’s list and total at its next text, counted once', async () => {
    const { client, tableName } = testTable();
    const oldest = c.onLine.at(-1) as string;
    const phone = (await listPage(c.owner, { limit: 100 })).conversations.find((x) => x.id === oldest)?.contact.phoneNumber;
    // As stored before the release: no channel entry, not in its channel's counters.
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.conversation(c.owner.company.id, oldest),
        UpdateExpression: 'REMOVE GSI4PK, GSI4SK',
      }),
    );
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.company(c.owner.company.id),
        UpdateExpression: 'ADD #channel :minus, #unassignedThere :minus',
        ExpressionAttributeNames: {
          '#channel': channelCounter(c.line.channel.id, 'OPEN'),
          '#unassignedThere': assigneeChannelCounter(null, c.line.channel.id, 'OPEN'),
        },
        ExpressionAttributeValues: { ':minus': -1 },
      }),
    );
    const before = await listPage(c.agentA, { limit: 100 });
    expect(ids(before)).not.toContain(oldest);
    expect(before.total).toBe(3);
    const unassignedBefore = await listPage(c.agentA, { assignee: 'unassigned', limit: 100 });
    expect(ids(unassignedBefore)).not.toContain(oldest);
    expect(unassignedBefore.total).toBe(2);

    expect((await textIn(c.line, { from: String(phone), body: 'Still there?' })).status).toBe(200);
    const after = await listPage(c.agentA, { limit: 100 });
    expect(ids(after)[0]).toBe(oldest);
    expect(after.total).toBe(4);
    expect(after.conversations).toHaveLength(4);
    expect((await listPage(c.agentA, { assignee: 'unassigned', limit: 100 })).total).toBe(3);
  });
});
