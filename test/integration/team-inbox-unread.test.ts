import { describe, expect, it } from 'vitest';
import { UNREAD_WINDOW } from '../../shared/constants';
import { callRoute, signUp, unchecked } from '../support/api';
import { seedConversations } from '../support/conversations';
import { endpoints } from '../support/endpoints';
import { openSocket, type Socket } from '../support/realtime';
import { conversationWith, newPhone, type SmsLine, smsLine, socketsClosedAfterEach, textIn } from '../support/sms';
import { testTable } from '../support/table';
import { addTeamMember } from '../support/team';
import { inboxOfLine, listPage, markRead, unreadOf, unreadSummary } from '../support/team-inbox';

/**
 * Unread per member: each member's count of a conversation comes from their own read
 * marker against the conversation's inbound counter; reading it changes nobody else's.
 */

const listen = socketsClosedAfterEach();

/** Another text into a conversation, once the company's socket heard it stored. */
async function textAgain(line: SmsLine, socket: Socket, phone: string, body: string) {
  const answer = await textIn(line, { from: phone, body });
  expect(answer.status).toBe(200);
  await socket.next('new_message', (e) => e.data.message.body === body);
}

describe('unread per member', () => {
  it('counts inbound texts per member; reading is the reader’s own, and a new text counts again', async () => {
    const line = await smsLine();
    const ada = line.account;
    const grace = await addTeamMember(ada, { name: 'Grace Hopper' });
    await inboxOfLine(line, [grace]);
    const socket = await listen(line);
    const graceSocket = await openSocket(grace);
    try {
      const phone = newPhone();
      const conversationId = await conversationWith(line, socket, phone, 'Hello?');
      await textAgain(line, socket, phone, 'Anyone there?');
      expect(await unreadOf(ada, conversationId)).toBe(2);
      expect(await unreadOf(grace, conversationId)).toBe(2);

      const read = await markRead(ada, conversationId);
      expect(read.status).toBe(200);
      expect(read.body.data.conversation).toMatchObject({ id: conversationId, unreadCount: 0, messageCount: 2 });
      // The reader's other tabs hear it; nobody else's sockets do.
      expect((await socket.next('conversation_read')).data).toEqual({ conversationId });
      await graceSocket.beat();
      expect(graceSocket.log.filter((e) => e.type === 'conversation_read')).toEqual([]);

      expect(await unreadOf(ada, conversationId)).toBe(0);
      expect(await unreadOf(grace, conversationId)).toBe(2);

      await textAgain(line, socket, phone, 'Hello again');
      expect(await unreadOf(ada, conversationId)).toBe(1);
      expect(await unreadOf(grace, conversationId)).toBe(3);

      expect((await markRead(grace, conversationId)).body.data.conversation.unreadCount).toBe(0);
      expect(await unreadOf(grace, conversationId)).toBe(0);
      expect(await unreadOf(ada, conversationId)).toBe(1);

      // Events go to everyone: their conversation has no reader's count.
      const event = socket.log.find((e) => e.type === 'new_message');
      expect(event?.type === 'new_message' && 'unreadCount' in event.data.conversation).toBe(false);
    } finally {
      await graceSocket.close();
    }
  });

  it('a member who joins later is not handed the history as unread, but the next text is', async () => {
    const line = await smsLine();
    const socket = await listen(line);
    const phone = newPhone();
    const conversationId = await conversationWith(line, socket, phone, 'Before you joined');
    const alan = await addTeamMember(line.account, { name: 'Alan Turing' });
    await inboxOfLine(line, [alan]);
    expect(await unreadOf(alan, conversationId)).toBe(0);
    expect(await unreadOf(line.account, conversationId)).toBe(1);

    await textAgain(line, socket, phone, 'After you joined');
    // No marker yet: every inbound text of a conversation active since they joined.
    expect(await unreadOf(alan, conversationId)).toBe(2);
  });

  it('answers the status change with the reader’s count', async () => {
    const line = await smsLine();
    const socket = await listen(line);
    const conversationId = await conversationWith(line, socket, newPhone(), 'Close me');
    const closed = await callRoute(endpoints.updateConversationStatus, {
      params: { id: conversationId },
      token: line.account.tokens.accessToken,
      body: { status: 'CLOSED' },
    });
    expect(closed.status).toBe(200);
    expect(closed.body.data.conversation.unreadCount).toBe(1);
    const event = await socket.next('conversation_status_updated');
    expect('unreadCount' in event.data.conversation).toBe(false);
  });

  it('refuses another company’s conversation (404) and leaves its markers alone', async () => {
    const line = await smsLine();
    const socket = await listen(line);
    const conversationId = await conversationWith(line, socket, newPhone(), 'Private');
    const outsider = await signUp({ companyName: 'Outsider Co' });
    const refused = await markRead(outsider, conversationId);
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('NOT_FOUND');
    expect(await unreadOf(line.account, conversationId)).toBe(1);
    expect(await unreadSummary(outsider)).toEqual({ count: 0, complete: true });
  });
});

describe('the unread summary and filter', () => {
  it('counts open conversations with unread among the most recent, and says when it looked at only those', async () => {
    const line = await smsLine();
    const ada = line.account;
    const socket = await listen(line);
    expect(await unreadSummary(ada)).toEqual({ count: 0, complete: true });

    const first = await conversationWith(line, socket, newPhone(), 'One');
    const second = await conversationWith(line, socket, newPhone(), 'Two');
    const third = await conversationWith(line, socket, newPhone(), 'Three');
    expect(await unreadSummary(ada)).toEqual({ count: 3, complete: true });

    await markRead(ada, second);
    expect(await unreadSummary(ada)).toEqual({ count: 2, complete: true });
    // Closed conversations are not waiting for anyone.
    const closing = await callRoute(endpoints.updateConversationStatus, {
      params: { id: first },
      token: ada.tokens.accessToken,
      body: { status: 'CLOSED' },
    });
    expect(closing.status).toBe(200);
    expect(await unreadSummary(ada)).toEqual({ count: 1, complete: true });

    // unread=true: only those with unread for the caller, paged by cursor within the window.
    const pageOne = await listPage(ada, { unread: 'true', limit: 1 });
    expect(pageOne.conversations.map((c) => [c.id, c.unreadCount])).toEqual([[third, 1]]);
    expect(pageOne.total).toBe(2);
    expect(pageOne.pagination).toMatchObject({ total: 2, limit: 1, offset: 0 });
    const cursor = pageOne.pagination.nextCursor;
    expect(cursor).toEqual(expect.any(String));
    const pageTwo = await listPage(ada, { unread: 'true', limit: 1, cursor: cursor as string });
    expect(pageTwo.conversations.map((c) => [c.id, c.status])).toEqual([[first, 'CLOSED']]);
    expect(pageTwo.pagination).toMatchObject({ offset: 1, nextCursor: null });
    expect((await listPage(ada, { unread: 'true', offset: 1 })).conversations.map((c) => c.id)).toEqual([first]);

    const open = await listPage(ada, { unread: 'true', status: 'OPEN' });
    expect(open.conversations.map((c) => c.id)).toEqual([third]);
    expect(open.total).toBe(1);
    expect((await listPage(ada, { unread: 'false', status: 'OPEN' })).total).toBe(2);

    // Alongside the assignee filter: the window is the assignee's conversations.
    const assigned = await callRoute(endpoints.assignConversation, {
      params: { id: third },
      token: ada.tokens.accessToken,
      body: { userId: ada.user.id },
    });
    expect(assigned.status).toBe(200);
    const mine = await listPage(ada, { unread: 'true', assignee: 'me' });
    expect([mine.conversations.map((c) => c.id), mine.total]).toEqual([[third], 1]);
    const unassigned = await listPage(ada, { unread: 'true', assignee: 'unassigned', limit: 1 });
    expect([unassigned.conversations.map((c) => c.id), unassigned.total]).toEqual([[first], 1]);
    expect(unassigned.pagination.nextCursor).toBeNull();

    const bad = await callRoute(endpoints.listConversations, {
      query: { unread: unchecked('maybe') },
      token: ada.tokens.accessToken,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('looks at the UNREAD_WINDOW most recently active open conversations only', async () => {
    const line = await smsLine();
    const ada = line.account;
    const socket = await listen(line);
    // Older open conversations than the window holds, stored before Ada joined: none unread for her.
    const start = Date.now() - 7 * 24 * 3600_000;
    const seeded = await seedConversations(
      testTable(),
      ada.company.id,
      line.channel,
      Array.from({ length: UNREAD_WINDOW }, (_, i) => ({ at: new Date(start + i * 1000) })),
    );
    expect(await unreadSummary(ada)).toEqual({ count: 0, complete: true });

    const fresh = await conversationWith(line, socket, newPhone(), 'New arrival');
    // The oldest seeded conversation fell out of the window.
    expect(await unreadSummary(ada)).toEqual({ count: 1, complete: false });
    const unread = await listPage(ada, { unread: 'true', status: 'OPEN' });
    expect(unread.conversations.map((c) => c.id)).toEqual([fresh]);
    expect(unread.total).toBe(1);
    expect(seeded).toHaveLength(UNREAD_WINDOW);
  });
});
