import { beforeAll, describe, expect, it } from 'vitest';
import type { ConversationPage } from '../../shared/contract/conversations';
import { socketPath } from '../../shared/contract/realtime-events';
import { TWILIO_WEBHOOKS } from '../../shared/contract/route';
import { type Account, signUp, unchecked } from '../support/api';
import { seedConversations } from '../support/conversations';
import { endpoints } from '../support/endpoints';
import { ownGateway } from '../support/own-gateway';
import { openSocketAt, type Socket } from '../support/realtime';
import { withChannel } from '../support/settings';
import { tableOfOwn, testTable } from '../support/table';
import { addTeamMember } from '../support/team';

/**
 * A removal nobody finishes (docs/product.md: Removed members): the remover's tab closed after the
 * first pass. The scheduled sweep, which EventBridge runs in AWS, finishes it as a pass would. Here a
 * pass moves nothing (MEMBER_REMOVAL_PASS_MS=0, as a closed tab after the removal's first answer),
 * and the test runs the sweep once through a gateway of this file's own. The sweep visits every
 * company's unfinished removals, so this file has a table of its own.
 */

const TABLE_NAME = tableOfOwn('removals');

const gateway = ownGateway({
  environment: (origin) => ({ TABLE_NAME, WEBHOOK_BASE_URL: `${origin}${TWILIO_WEBHOOKS}`, MEMBER_REMOVAL_PASS_MS: '0' }),
});
const origin = () => `http://${gateway.host}`;

async function listed(who: Account, query: Record<string, string | number>): Promise<ConversationPage> {
  const res = await gateway.callRoute(endpoints.listConversations, { query: unchecked(query), token: who.tokens.accessToken });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const remove = (who: Account, member: Account, body?: unknown) =>
  gateway.callRoute(endpoints.removeUser, {
    params: { id: member.user.id },
    token: who.tokens.accessToken,
    ...(body === undefined ? {} : { body: unchecked(body) }),
  });

async function openTab(account: Account): Promise<Socket> {
  const ticket = await gateway.callRoute(endpoints.realtimeTicket, { token: account.tokens.accessToken });
  const query = new URLSearchParams({ ticket: ticket.body.data.ticket, userId: account.user.id, companyId: account.company.id });
  return openSocketAt(`ws://${gateway.host}${socketPath(account.company.id)}?${query}`, account.user.id);
}

const ref = (account: Account) => ({ id: account.user.id, name: account.user.name });

describe('a removal whose passes stopped', () => {
  let owner: Account;
  let grace: Account;
  let channel: { id: string; identifier: string };

  beforeAll(async () => {
    owner = await signUp({ companyName: 'Closed Tab Co', name: 'Ada Lovelace' }, { origin: origin() });
    [grace, { channel }] = await Promise.all([
      addTeamMember(owner, { name: 'Grace Hopper', origin: origin() }),
      withChannel(owner, undefined, { origin: origin() }),
    ]);
    // Grace sees the number's conversations through its inbox, so she may be given them
    // (docs/product.md: Who sees what).
    const as = { token: owner.tokens.accessToken };
    const inbox = await gateway.callRoute(endpoints.createInbox, { ...as, body: { name: 'Support' } });
    const inboxId = inbox.body.data.inbox.id;
    await gateway.callRoute(endpoints.addInboxMember, { ...as, params: { id: inboxId }, body: { userId: grace.user.id } });
    const routed = await gateway.callRoute(endpoints.updateChannelRouting, {
      ...as,
      params: { id: channel.id },
      body: { routingType: 'INBOX', routingTargetId: inboxId },
    });
    expect(routed.status, JSON.stringify(routed.body)).toBe(200);
  }, 60_000);

  /** A member with `open` open and `closed` closed conversations assigned, numbers from `firstPhone`. */
  async function memberWith(name: string, open: number, closed: number, firstPhone: number) {
    const member = await addTeamMember(owner, { name, origin: origin() });
    const start = Date.UTC(2026, 0, 1);
    const seeds = Array.from({ length: open + closed }, (_, i) => ({
      at: new Date(start + i * 60_000),
      status: i < open ? ('OPEN' as const) : ('CLOSED' as const),
      assignee: ref(member),
    }));
    const table = { client: testTable().client, tableName: TABLE_NAME };
    const seeded = await seedConversations(table, owner.company.id, channel, seeds, firstPhone);
    return { member, ids: seeded.map((c) => c.id) };
  }

  it('is finished by the scheduled sweep: unassigned, with the counters and events of an unassignment by the remover', async () => {
    const { member: leaver, ids } = await memberWith('Leaving Agent', 30, 5, 0);
    const unassignedBefore = (await listed(owner, { status: 'OPEN', assignee: 'unassigned' })).total;

    // The tab sent one pass and closed: the member is gone from the team, their conversations are not moved.
    const first = await remove(owner, leaver);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.conversations).toEqual({ moved: 0, complete: false });
    const team = await gateway.callRoute(endpoints.listUsers, { token: owner.tokens.accessToken });
    expect(team.body.data.users.map((u) => u.id)).not.toContain(leaver.user.id);
    expect((await listed(owner, { status: 'BOTH', assignee: leaver.user.id })).total).toBe(35);
    const tab = await openTab(owner);

    await gateway.runScheduled('memberRemovals', {});

    // Nothing is left assigned to them; Unassigned counts every open one.
    expect((await listed(owner, { status: 'BOTH', assignee: leaver.user.id, limit: 100 })).conversations).toEqual([]);
    expect((await listed(owner, { status: 'OPEN', assignee: 'unassigned' })).total).toBe(unassignedBefore + 30);
    const unassigned = await listed(owner, { status: 'BOTH', assignee: 'unassigned', limit: 100 });
    expect(ids.filter((id) => !unassigned.conversations.some((c) => c.id === id))).toEqual([]);
    // Each told to the company as an unassignment by the member who removed them.
    await tab.beat();
    const events = tab.log.filter((e) => e.type === 'conversation_assigned');
    expect(new Set(events.map((e) => e.data.conversationId))).toEqual(new Set(ids));
    expect(events).toHaveLength(35);
    for (const event of events) expect(event.data).toMatchObject({ assignee: null, assignedBy: ref(owner) });

    // Done: the removal answers 404 as for any removed member, and another run moves nothing.
    const again = await remove(owner, leaver);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND', message: 'User not found' } });
    await gateway.runScheduled('memberRemovals', {});
    await tab.beat();
    expect(tab.log.filter((e) => e.type === 'conversation_assigned')).toHaveLength(35);
    await tab.close();
  });

  it('gives them to the member the remover chose, even once the remover has left too', async () => {
    const manager = await addTeamMember(owner, { name: 'Mary Manager', role: 'ADMIN', origin: origin() });
    const { member: leaver, ids } = await memberWith('Handing Over', 3, 1, 100);
    const graceOpenBefore = (await listed(grace, { status: 'OPEN', assignee: 'me' })).total;

    const first = await remove(manager, leaver, { reassignTo: grace.user.id });
    expect(first.body.data.conversations).toEqual({ moved: 0, complete: false });
    // The remover is removed before any pass finished.
    expect((await remove(owner, manager)).status).toBe(200);
    const tab = await openTab(owner);

    await gateway.runScheduled('memberRemovals', {});

    const mine = await listed(grace, { status: 'BOTH', assignee: 'me', limit: 100 });
    expect(ids.filter((id) => !mine.conversations.some((c) => c.id === id))).toEqual([]);
    expect((await listed(grace, { status: 'OPEN', assignee: 'me' })).total).toBe(graceOpenBefore + 3);
    await tab.beat();
    const events = tab.log.filter((e) => e.type === 'conversation_assigned');
    expect(events.map((e) => e.data.conversationId).sort()).toEqual([...ids].sort());
    for (const event of events) expect(event.data).toMatchObject({ assignee: ref(grace), assignedBy: ref(manager) });
    await tab.close();
  });
});
