import { describe, expect, it } from 'vitest';
import { MAX_NOTE_LENGTH } from '../../shared/constants';
import { callRoute, signUp, unchecked } from '../support/api';
import { endpoints } from '../support/endpoints';
import { openSocket } from '../support/realtime';
import {
  conversationWith,
  newPhone,
  readConversation,
  sendText,
  smsLine,
  socketsClosedAfterEach,
  wholeThread,
} from '../support/sms';
import { addTeamMember } from '../support/team';
import { addNote, markRead, shareInbox, unreadOf, unreadSummary } from '../support/team-inbox';
import { emulatorMessages } from '../support/twilio';
import { addInboxMember } from '../support/voice';

/**
 * Internal notes: in the thread in order with the texts, never sent to Twilio, never moving
 * the conversation's place in the list; `@Name` mentions make it unread for the members mentioned.
 */

const listen = socketsClosedAfterEach();

/** A company (Ada, the owner; Grace and Alan, agents) with a conversation every member has read. */
async function teamWithConversation() {
  const line = await smsLine();
  const ada = line.account;
  const [grace, alan] = [await addTeamMember(ada, { name: 'Grace Hopper' }), await addTeamMember(ada, { name: 'Alan Turing' })];
  const inbox = await shareInbox(ada, line.channel, [ada, grace, alan]);
  const socket = await listen(line);
  const conversationId = await conversationWith(line, socket, newPhone(), 'My order is late');
  await Promise.all([ada, grace, alan].map((member) => markRead(member, conversationId)));
  return { line, ada, grace, alan, socket, conversationId, inbox };
}

describe('an internal note', () => {
  it('is stored in the thread in order, never sent to Twilio, and leaves the conversation’s activity alone', async () => {
    const { line, ada, grace, socket, conversationId } = await teamWithConversation();
    const graceSocket = await openSocket(grace);
    try {
      const before = (await readConversation(ada, conversationId)).body.data.conversation;

      const added = await addNote(ada, conversationId, 'Checked the warehouse: it ships tomorrow.');
      expect(added.status).toBe(201);
      const note = added.body.data.message;
      expect(note).toMatchObject({
        conversationId,
        type: 'NOTE',
        direction: 'OUTBOUND',
        status: 'SENT',
        body: 'Checked the warehouse: it ships tomorrow.',
        sentBy: { id: ada.user.id, name: ada.user.name },
        mentions: [],
        smsMessage: { providerMessageId: null, segments: 0, errorCode: null },
      });
      // Those who see the conversation hear it, the author too (their other tabs), and Grace through the
      // number's inbox (docs/product.md: Who sees what; who does not hear it: conversation-events-audience.test.ts).
      expect((await socket.next('note_added')).data).toEqual({ conversationId, message: note });
      expect((await graceSocket.next('note_added')).data).toEqual({ conversationId, message: note });

      const after = (await readConversation(ada, conversationId)).body.data.conversation;
      expect(after).toMatchObject({
        lastMessage: before.lastMessage,
        lastMessageAt: before.lastMessageAt,
        messageCount: before.messageCount,
        unreadCount: 0,
      });
      expect(await unreadOf(grace, conversationId)).toBe(0);

      const reply = await sendText(grace, conversationId, 'It ships tomorrow!');
      expect(reply.status).toBe(201);
      const { messages } = await wholeThread(ada, conversationId);
      expect(messages.map((m) => [m.type, m.body])).toEqual([
        ['SMS', 'My order is late'],
        ['NOTE', 'Checked the warehouse: it ships tomorrow.'],
        ['SMS', 'It ships tomorrow!'],
      ]);
      expect(messages[1]).toEqual(note);

      // Twilio saw the customer's text and the reply, never the note.
      await expect
        .poll(async () => (await emulatorMessages(line.twilio.accountSid)).map((m) => m.body))
        .toContain('It ships tomorrow!');
      const bodies = (await emulatorMessages(line.twilio.accountSid)).map((m) => m.body);
      expect(bodies).not.toContain(note.body);
    } finally {
      await graceSocket.close();
    }
  });

  it('marks it unread for the members it mentions, not for its author or anyone else', async () => {
    const { ada, grace, alan, conversationId } = await teamWithConversation();
    const added = await addNote(ada, conversationId, '@Grace Hopper can you call them back? cc @ada lovelace');
    expect(added.status).toBe(201);
    expect(added.body.data.message.mentions).toEqual([
      { id: grace.user.id, name: 'Grace Hopper' },
      { id: ada.user.id, name: ada.user.name },
    ]);

    expect(await unreadOf(grace, conversationId)).toBe(1);
    expect(await unreadOf(ada, conversationId)).toBe(0);
    expect(await unreadOf(alan, conversationId)).toBe(0);
    expect(await unreadSummary(grace)).toEqual({ count: 1, complete: true });

    // Mentioned twice before reading: two unread mentions; reading clears them.
    await addNote(alan, conversationId, 'Also @Grace Hopper: they prefer mornings.');
    expect(await unreadOf(grace, conversationId)).toBe(2);
    await markRead(grace, conversationId);
    expect(await unreadOf(grace, conversationId)).toBe(0);
  });

  it('mentions the member picked from the list when two share a name; a first name alone mentions nobody', async () => {
    const { ada, grace, conversationId, inbox } = await teamWithConversation();
    const namesake = await addTeamMember(ada, { name: 'Grace Hopper' });
    await addInboxMember(ada, inbox.id, namesake.user.id);
    await markRead(namesake, conversationId);
    const note = (body: unknown) =>
      callRoute(endpoints.addNote, { params: { id: conversationId }, token: ada.tokens.accessToken, body: unchecked(body) });

    const picked = await note({ body: '@Grace Hopper please call them', mentionIds: [namesake.user.id] });
    expect(picked.status).toBe(201);
    expect(picked.body.data.message.mentions).toEqual([{ id: namesake.user.id, name: 'Grace Hopper' }]);
    expect(await unreadOf(namesake, conversationId)).toBe(1);
    expect(await unreadOf(grace, conversationId)).toBe(0);

    // The rule, as the composer flags it before sending: a first name is not a member's name.
    const firstName = await note({ body: '@Grace please double-check' });
    expect(firstName.body.data.message.mentions).toEqual([]);
    // A picked member whose name is no longer written, or an id of nobody here: nobody is mentioned.
    const removed = await note({ body: 'Never mind', mentionIds: [grace.user.id, 'someone-else'] });
    expect(removed.status).toBe(201);
    expect(removed.body.data.message.mentions).toEqual([]);
    expect(await unreadOf(grace, conversationId)).toBe(0);

    for (const [mentionIds, message] of [
      ['u1', 'mentionIds must be a list of member ids'],
      [[42], 'mentionIds must be member ids'],
      [Array.from({ length: 51 }, (_, i) => `u${i}`), 'A note can mention at most 50 members'],
    ] as const) {
      const refused = await note({ body: 'Hello', mentionIds });
      expect(refused.status, JSON.stringify(mentionIds).slice(0, 30)).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message });
    }
  });

  it('a mention of a member who never read the conversation makes only the mention unread', async () => {
    const line = await smsLine();
    const socket = await listen(line);
    const conversationId = await conversationWith(line, socket, newPhone(), 'Earlier question');
    const joined = await addTeamMember(line.account, { name: 'Katherine Johnson' });
    await shareInbox(line.account, line.channel, [line.account, joined]);
    expect(await unreadOf(joined, conversationId)).toBe(0);
    expect((await addNote(line.account, conversationId, 'Welcome @Katherine Johnson, this one is yours')).status).toBe(201);
    expect(await unreadOf(joined, conversationId)).toBe(1);
  });

  it('refuses another company’s conversation (404) and bad bodies (400)', async () => {
    const { ada, conversationId } = await teamWithConversation();
    const outsider = await signUp({ companyName: 'Outsider Co' });
    const refused = await addNote(outsider, conversationId, 'Sneaky');
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('NOT_FOUND');
    expect((await addNote(ada, 'not-a-conversation', 'Hello')).status).toBe(404);

    const cases: [unknown, string][] = [
      [undefined, 'Note must not be empty'],
      ['', 'Note must not be empty'],
      ['   ', 'Note must not be empty'],
      [42, 'Note must be text'],
      [{ text: 'hi' }, 'Note must be text'],
      ['x'.repeat(MAX_NOTE_LENGTH + 1), 'A note can be at most 4,000 characters'],
    ];
    for (const [body, message] of cases) {
      const res = await addNote(ada, conversationId, body);
      expect(res.status, JSON.stringify(body)?.slice(0, 40)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message });
    }
    expect((await addNote(ada, conversationId, 'x'.repeat(MAX_NOTE_LENGTH))).status).toBe(201);
    const { messages } = (await readConversation(ada, conversationId)).body.data.conversation;
    expect(messages.filter((m) => m.type === 'NOTE')).toHaveLength(1);
  });
});
