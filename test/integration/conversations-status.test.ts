import { beforeEach, describe, expect, it } from 'vitest';
import type { ConversationRecord } from '../../functions/conversations/records';
import { type Account, callRoute, signUp, unchecked } from '../support/api';
import { seedConversations } from '../support/conversations';
import { endpoints } from '../support/endpoints';
import { openSocket } from '../support/realtime';
import { withChannel } from '../support/settings';
import { testTable } from '../support/table';

/** PATCH /api/v1/conversations/{id}/status: OPEN ⇄ CLOSED, the counters follow, the company hears it. */

let account: Account;
let open: ConversationRecord;
let closed: ConversationRecord;

beforeEach(async () => {
  account = await signUp({ companyName: 'Status Co' });
  const { channel } = await withChannel(account);
  const at = Date.now() - 3600_000;
  [open, closed] = (await seedConversations(testTable(), account.company.id, channel, [
    { at: new Date(at), status: 'OPEN', contactName: 'Ada' },
    { at: new Date(at + 1000), status: 'CLOSED' },
  ])) as [ConversationRecord, ConversationRecord];
});

const patch = (who: Account, id: string, body: unknown) =>
  callRoute(endpoints.updateConversationStatus, { params: { id }, token: who.tokens.accessToken, body: unchecked(body) });

/** What the list shows for each filter: the ids and the totals. */
async function lists(who: Account = account) {
  const read = async (status: string) => {
    const res = await callRoute(endpoints.listConversations, {
      query: { status: unchecked(status) },
      token: who.tokens.accessToken,
    });
    return { ids: res.body.data.conversations.map((c) => c.id), total: res.body.data.total };
  };
  const [OPEN, CLOSED, BOTH] = await Promise.all([read('OPEN'), read('CLOSED'), read('BOTH')]);
  return { OPEN, CLOSED, BOTH };
}

/** The lists as seeded: Ada's conversation open, the other closed. */
const asSeeded = () => ({
  OPEN: { ids: [open.id], total: 1 },
  CLOSED: { ids: [closed.id], total: 1 },
  BOTH: { ids: [closed.id, open.id], total: 2 },
});

describe('changing the status of a conversation', () => {
  it('closes and opens it again: the lists, the totals and every socket of the company follow', async () => {
    const socket = await openSocket(account);
    try {
      const closing = await patch(account, open.id, { status: 'CLOSED' });
      expect(closing.status).toBe(200);
      expect(closing.body.data.conversation).toMatchObject({
        id: open.id,
        status: 'CLOSED',
        contact: { id: open.contactId, name: 'Ada', phoneNumber: open.contactPhone },
        lastMessageAt: open.lastMessageAt,
        messageCount: 1,
      });
      const event = await socket.next('conversation_status_updated');
      // The event is the company's: the answer less the reader's own unread count.
      const { unreadCount: _reader, ...shared } = closing.body.data.conversation;
      expect(event.data).toEqual({ conversationId: open.id, status: 'CLOSED', conversation: shared });
      expect(await lists()).toEqual({
        OPEN: { ids: [], total: 0 },
        CLOSED: { ids: [closed.id, open.id], total: 2 },
        BOTH: { ids: [closed.id, open.id], total: 2 },
      });

      const opening = await patch(account, open.id, { status: 'OPEN' });
      expect(opening.status).toBe(200);
      expect(opening.body.data.conversation.status).toBe('OPEN');
      expect((await socket.next('conversation_status_updated')).data).toMatchObject({ conversationId: open.id, status: 'OPEN' });
      expect(await lists()).toEqual(asSeeded());
    } finally {
      await socket.close();
    }
  });

  it('to the status it has answers the conversation and changes nothing', async () => {
    const socket = await openSocket(account);
    try {
      const res = await patch(account, closed.id, { status: 'CLOSED' });
      expect(res.status).toBe(200);
      expect(res.body.data.conversation).toMatchObject({ id: closed.id, status: 'CLOSED' });
      // The heartbeat's answer comes after any event published before it: none was.
      await socket.beat();
      expect(socket.log.filter((e) => e.type === 'conversation_status_updated')).toEqual([]);
      expect(await lists()).toEqual(asSeeded());
    } finally {
      await socket.close();
    }
  });

  it('in parallel moves the counters once', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => patch(account, open.id, { status: 'CLOSED' })));
    expect(answers.map((a) => [a.status, a.body.data.conversation.status])).toEqual(Array(5).fill([200, 'CLOSED']));
    expect(await lists()).toEqual({
      OPEN: { ids: [], total: 0 },
      CLOSED: { ids: [closed.id, open.id], total: 2 },
      BOTH: { ids: [closed.id, open.id], total: 2 },
    });

    // Opposite changes at once: whichever lands last is the status, and the totals still add up.
    const both = await Promise.all([
      patch(account, open.id, { status: 'OPEN' }),
      patch(account, open.id, { status: 'CLOSED' }),
      patch(account, closed.id, { status: 'OPEN' }),
    ]);
    expect(both.map((a) => a.status)).toEqual([200, 200, 200]);
    const after = await lists();
    expect(after.OPEN.total + after.CLOSED.total).toBe(2);
    expect(after.OPEN.ids).toHaveLength(after.OPEN.total);
    expect(after.CLOSED.ids).toHaveLength(after.CLOSED.total);
  });

  it.each<[string, unknown, string]>([
    ['an unknown status', { status: 'ARCHIVED' }, 'status must be OPEN or CLOSED'],
    ['a missing status', {}, 'status must be OPEN or CLOSED'],
    ['a lowercase status', { status: 'closed' }, 'status must be OPEN or CLOSED'],
  ])('with %s answers 400 and changes nothing', async (_, body, message) => {
    const res = await patch(account, open.id, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { message } });
    expect((await lists()).OPEN).toEqual({ ids: [open.id], total: 1 });
  });

  it("of another company's conversation, or of none, answers 404 and changes nothing", async () => {
    const stranger = await signUp({ companyName: 'Stranger Co' });
    for (const id of [open.id, 'no-such-conversation']) {
      const res = await patch(stranger, id, { status: 'CLOSED' });
      expect(res.status, id).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'Conversation not found' });
    }
    // An id far longer than any the product hands out is refused before the handler (define-handler).
    const tooLong = await patch(stranger, 'x'.repeat(2000), { status: 'CLOSED' });
    expect(tooLong.status).toBe(404);
    expect(tooLong.body.error).toMatchObject({ code: 'NOT_FOUND' });
    expect((await lists()).OPEN).toEqual({ ids: [open.id], total: 1 });
    expect(await lists(stranger)).toEqual({
      OPEN: { ids: [], total: 0 },
      CLOSED: { ids: [], total: 0 },
      BOTH: { ids: [], total: 0 },
    });
  });

  it('needs a signed-in user', async () => {
    const res = await callRoute(endpoints.updateConversationStatus, { params: { id: open.id }, body: { status: 'CLOSED' } });
    expect(res.status).toBe(401);
  });
});
