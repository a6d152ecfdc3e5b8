import { beforeAll, describe, expect, it } from 'vitest';
import type { ConversationPage } from '../../shared/contract/conversations';
import { type Account, callRoute, signUp, unchecked } from '../support/api';
import { seedConversations } from '../support/conversations';
import { endpoints } from '../support/endpoints';
import { openSocket } from '../support/realtime';
import { withChannel } from '../support/settings';
import { testTable } from '../support/table';
import { addTeamMember } from '../support/team';
import { shareInbox } from '../support/team-inbox';

/**
 * Removing a member moves what is assigned to them (docs/product.md: Removed members): to Unassigned,
 * or to the member the remover chose, each as an ordinary assignment (counters, event), paged through
 * however many there are; a repeated removal goes on where one stopped and then answers 404.
 */

type Query = Record<string, string | number>;

async function listed(who: Account, query: Query): Promise<ConversationPage> {
  const res = await callRoute(endpoints.listConversations, { query: unchecked(query), token: who.tokens.accessToken });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const remove = (who: Account, member: Account, body?: unknown) =>
  callRoute(endpoints.removeUser, {
    params: { id: member.user.id },
    token: who.tokens.accessToken,
    ...(body === undefined ? {} : { body: unchecked(body) }),
  });

/**
 * The removal as the Team page sends it: again while the answer says conversations are left (a pass
 * stops with time to answer). Answers how many moved over all passes.
 */
async function removeFully(who: Account, member: Account, body?: unknown): Promise<number> {
  let moved = 0;
  for (let pass = 1; pass <= 20; pass++) {
    const res = await remove(who, member, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.user).toEqual({ id: member.user.id });
    // An answer without `conversations` (an API from before they moved) counts as done, moving none.
    const { moved: now = 0, complete = true } = res.body.data.conversations ?? {};
    moved += now;
    if (complete) return moved;
  }
  throw new Error('the removal did not finish in 20 passes');
}

const ref = (account: Account) => ({ id: account.user.id, name: account.user.name });

describe('removing a member who has conversations assigned', () => {
  let owner: Account;
  let grace: Account;
  let channel: { id: string; identifier: string };

  beforeAll(async () => {
    owner = await signUp({ companyName: 'Removal Co', name: 'Ada Lovelace' });
    [grace, { channel }] = await Promise.all([addTeamMember(owner, { name: 'Grace Hopper' }), withChannel(owner)]);
    // Grace sees the number's conversations, so a removal may hand them to her (docs/product.md: Removed members).
    await shareInbox(owner, channel, [grace]);
  }, 60_000);

  /** A member with `open` open and `closed` closed conversations assigned, numbers from `firstPhone`. */
  async function memberWith(name: string, open: number, closed: number, firstPhone: number) {
    const member = await addTeamMember(owner, { name });
    const start = Date.UTC(2026, 0, 1);
    const seeds = Array.from({ length: open + closed }, (_, i) => ({
      at: new Date(start + i * 60_000),
      status: i < open ? ('OPEN' as const) : ('CLOSED' as const),
      assignee: ref(member),
    }));
    const seeded = await seedConversations(testTable(), owner.company.id, channel, seeds, firstPhone);
    return { member, ids: seeded.map((c) => c.id) };
  }

  it('without a body unassigns every one of them, over more than a page, with the counters and events of an unassignment', async () => {
    const { member: leaver, ids } = await memberWith('Leaving Agent', 45, 15, 0);
    const unassignedBefore = (await listed(owner, { status: 'OPEN', assignee: 'unassigned' })).total;
    const everyoneBefore = (await listed(owner, { status: 'OPEN' })).total;
    expect((await listed(leaver, { status: 'BOTH', assignee: 'me' })).total).toBe(60);
    // The number routes to no one: the owner is who sees them now (docs/product.md: Who sees what).
    const socket = await openSocket(owner);

    const moved = await removeFully(owner, leaver);

    // Every one of them is in Unassigned now, and nobody's list counts them as the removed member's.
    expect((await listed(owner, { status: 'OPEN', assignee: 'unassigned' })).total).toBe(unassignedBefore + 45);
    expect((await listed(owner, { status: 'CLOSED', assignee: leaver.user.id })).total).toBe(0);
    expect((await listed(owner, { status: 'BOTH', assignee: leaver.user.id, limit: 100 })).conversations).toEqual([]);
    expect((await listed(owner, { status: 'OPEN' })).total).toBe(everyoneBefore);
    const unassigned = await listed(owner, { status: 'BOTH', assignee: 'unassigned', limit: 100 });
    expect(ids.filter((id) => !unassigned.conversations.some((c) => c.id === id))).toEqual([]);
    const detail = await callRoute(endpoints.getConversation, {
      params: { id: ids[0] as string },
      token: grace.tokens.accessToken,
    });
    expect(detail.body.data.conversation.assignee).toBeNull();

    // Each one told to those who see it, as an ordinary unassignment by the remover.
    await socket.beat();
    const events = socket.log.filter((e) => e.type === 'conversation_assigned');
    expect(new Set(events.map((e) => e.data.conversationId))).toEqual(new Set(ids));
    expect(events).toHaveLength(60);
    for (const event of events) {
      expect(event.data).toMatchObject({ assignee: null, assignedBy: ref(owner), conversation: { assignee: null } });
    }
    expect(socket.log.filter((e) => e.type === 'member_removed').map((e) => e.data)).toEqual([{ userId: leaver.user.id }]);
    expect(moved).toBe(60);

    // Done: asking again finds no such member, and nothing moves.
    const again = await remove(owner, leaver);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND', message: 'User not found' } });
    await socket.close();
  });

  it('with reassignTo gives them to that member: their Mine counts them, and the company hears who has them', async () => {
    const { member: leaver, ids } = await memberWith('Handing Over', 3, 1, 100);
    const graceOpenBefore = (await listed(grace, { status: 'OPEN', assignee: 'me' })).total;
    const unassignedBefore = (await listed(owner, { status: 'OPEN', assignee: 'unassigned' })).total;
    const socket = await openSocket(owner);

    const moved = await removeFully(owner, leaver, { reassignTo: grace.user.id });

    const mine = await listed(grace, { status: 'BOTH', assignee: 'me', limit: 100 });
    expect(ids.filter((id) => !mine.conversations.some((c) => c.id === id))).toEqual([]);
    expect((await listed(grace, { status: 'OPEN', assignee: 'me' })).total).toBe(graceOpenBefore + 3);
    expect((await listed(owner, { status: 'OPEN', assignee: 'unassigned' })).total).toBe(unassignedBefore);
    await socket.beat();
    const events = socket.log.filter((e) => e.type === 'conversation_assigned');
    expect(events.map((e) => e.data.conversationId).sort()).toEqual([...ids].sort());
    for (const event of events) expect(event.data).toMatchObject({ assignee: ref(grace), assignedBy: ref(owner) });
    expect(moved).toBe(4);
    await socket.close();
  });

  it("refuses another company's member, the member being removed or a removed one as the target with 404, and removes nobody", async () => {
    const { member: leaver, ids } = await memberWith('Staying Put', 2, 0, 200);
    const stranger = await signUp({ companyName: 'Stranger Co' });
    const gone = await addTeamMember(owner, { name: 'Already Gone' });
    expect(await removeFully(owner, gone)).toBe(0);

    for (const reassignTo of [stranger.user.id, leaver.user.id, gone.user.id, 'no-such-user']) {
      const res = await remove(owner, leaver, { reassignTo });
      expect(res.status, reassignTo).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND', message: 'User not found' } });
    }
    // Another company's manager cannot remove them either.
    expect((await remove(stranger, leaver)).status).toBe(404);
    for (const [body, message] of [
      [{ reassignTo: 42 }, 'reassignTo must be a user id or null'],
      [{ reassignTo: '' }, 'reassignTo must be a user id or null'],
      [{ reassignTo: 'x'.repeat(101) }, 'reassignTo is too long'],
    ] as const) {
      const res = await remove(owner, leaver, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        success: false,
        error: { code: 'VALIDATION_FAILED', details: { fields: { reassignTo: message } } },
      });
    }

    const team = await callRoute(endpoints.listUsers, { token: owner.tokens.accessToken });
    expect(team.body.data.users.map((u) => u.id)).toContain(leaver.user.id);
    const theirs = await listed(owner, { status: 'OPEN', assignee: leaver.user.id });
    expect(theirs.conversations.map((c) => c.id).sort()).toEqual([...ids].sort());
    // An explicit null is the default: unassigned.
    expect(await removeFully(owner, leaver, { reassignTo: null })).toBe(2);
  });
});
