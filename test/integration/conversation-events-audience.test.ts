import { describe, expect, it } from 'vitest';
import type { ServerEvent, ServerEventType } from '../../shared/contract/realtime-events';
import type { Channel } from '../../shared/contract/settings';
import { type Account, callRoute, signUp } from '../support/api';
import { endpoints } from '../support/endpoints';
import { openSocket, type Socket } from '../support/realtime';
import { createInbox, withChannel } from '../support/settings';
import { newPhone, type SmsLine, sendText, textIn } from '../support/sms';
import { addTeamMember } from '../support/team';
import { addNote } from '../support/team-inbox';
import { newTwilioAccount, numberOf, numbersByKind } from '../support/twilio';
import { addInboxMember, routeChannel } from '../support/voice';

/**
 * Conversation events go only to the members who see the conversation (docs/product.md: Who sees
 * what): owners and admins, the agents of the inbox its number routes to, the agent whose private line
 * it is, its assignee and the agents a note mentions. A change of view (an inbox membership, a
 * routing, a role, an unassignment) is told to exactly those whose view it changed.
 */

type Who = 'owner' | 'admin' | 'sales' | 'support' | 'loner';
const EVERYONE: readonly Who[] = ['owner', 'admin', 'sales', 'support', 'loner'];

/**
 * A company of five, each with an open socket: Olga the owner, Adam an admin, Sam an agent of the Sales
 * inbox, Sue an agent of the Support inbox, and Lin, an agent in no inbox whose private line is the
 * third number. Sales' number routes to Sales, Support's to Support.
 */
async function company() {
  const owner = await signUp({ name: 'Olga Owner' });
  const twilio = await newTwilioAccount();
  const { provider, channel: salesChannel } = await withChannel(owner, twilio);
  const { smsOnly } = numbersByKind(twilio);
  const legacy = twilio.numbers.find((n) => n.capabilities.sms && n.capabilities.voice && !n.capabilities.mms);
  if (!legacy) throw new Error('the emulator account has no second voice+SMS number');
  const imported = await callRoute(endpoints.importChannels, {
    params: { id: provider.id },
    token: owner.tokens.accessToken,
    body: {
      numbers: [
        { sid: smsOnly.sid, phoneNumber: smsOnly.phone_number, capabilities: { voice: false, sms: true } },
        { sid: legacy.sid, phoneNumber: legacy.phone_number, capabilities: { voice: true, sms: true } },
      ],
    },
  });
  const byNumber = (n: string) => imported.body.data.channels.find((c) => c.identifier === n) as Channel;
  const [supportChannel, privateChannel] = [byNumber(smsOnly.phone_number), byNumber(legacy.phone_number)];
  const [admin, sales, support, loner] = await Promise.all([
    addTeamMember(owner, { role: 'ADMIN', name: 'Adam Admin' }),
    addTeamMember(owner, { name: 'Sam Sales' }),
    addTeamMember(owner, { name: 'Sue Support' }),
    addTeamMember(owner, { name: 'Lin Loner' }),
  ]);
  const [salesInbox, supportInbox] = [await createInbox(owner, 'Sales'), await createInbox(owner, 'Support')];
  await addInboxMember(owner, salesInbox.id, sales.user.id);
  await addInboxMember(owner, supportInbox.id, support.user.id);
  await routeChannel(owner, salesChannel, 'INBOX', salesInbox.id);
  await routeChannel(owner, supportChannel, 'INBOX', supportInbox.id);
  await routeChannel(owner, privateChannel, 'USER', loner.user.id);

  const { sms_url } = await numberOf(twilio, smsOnly.sid);
  const lineOf = (channel: Channel): SmsLine => ({ account: owner, provider, channel, twilio, smsUrl: sms_url });
  const members: Record<Who, Account> = { owner, admin, sales, support, loner };
  const sockets = Object.fromEntries(
    await Promise.all(EVERYONE.map(async (who) => [who, await openSocket(members[who])] as const)),
  ) as Record<Who, Socket>;
  return {
    members,
    sockets,
    lines: { sales: lineOf(salesChannel), support: lineOf(supportChannel), private: lineOf(privateChannel) },
    inboxes: { sales: salesInbox, support: supportInbox },
    close: () => Promise.all(Object.values(sockets).map((s) => s.close())),
  };
}
type Company = Awaited<ReturnType<typeof company>>;

/**
 * Who heard events of this type that `match`: every socket's check-in answered after them, so whatever
 * was sent to it before has arrived (a socket that was sent nothing stays without).
 */
async function heard<K extends ServerEventType>(
  c: Company,
  type: K,
  match: (e: ServerEvent<K>) => boolean = () => true,
): Promise<Who[]> {
  await Promise.all(EVERYONE.map((who) => c.sockets[who].beat()));
  return EVERYONE.filter((who) => c.sockets[who].log.some((e) => e.type === type && match(e as ServerEvent<K>)));
}

/** A phone (a new one unless given) texts the line; answers the conversation's id once the owner's socket has the text. */
async function textFromNewPhone(c: Company, line: SmsLine, body: string, from = newPhone()): Promise<string> {
  const answer = await textIn(line, { from, body });
  expect(answer.status).toBe(200);
  const event = await c.sockets.owner.next('new_message', (e) => e.data.message.body === body);
  return event.data.conversationId;
}

const about =
  (conversationId: string) =>
  (e: { data: { conversationId: string } }): boolean =>
    e.data.conversationId === conversationId;

describe('conversation events', () => {
  it('an inbound text reaches the members who see its number: its inbox, the private line’s owner, and managers only for a number routed to no one', async () => {
    const c = await company();
    try {
      const sales = await textFromNewPhone(c, c.lines.sales, 'Do you ship to Canada?');
      expect(await heard(c, 'new_message', about(sales))).toEqual(['owner', 'admin', 'sales']);
      const customer = newPhone();
      const support = await textFromNewPhone(c, c.lines.support, 'My order arrived broken', customer);
      expect(await heard(c, 'new_message', about(support))).toEqual(['owner', 'admin', 'support']);
      const personal = await textFromNewPhone(c, c.lines.private, 'Lin, it is your dentist');
      expect(await heard(c, 'new_message', about(personal))).toEqual(['owner', 'admin', 'loner']);

      // Support's number routed to no one: Sue's view of it goes (her tab is told), and only managers hear it.
      await routeChannel(c.members.owner, c.lines.support.channel, 'UNASSIGNED');
      expect(await heard(c, 'visibility_changed')).toEqual(['support']);
      expect(c.sockets.support.log.find((e) => e.type === 'visibility_changed')?.data).toEqual({ reason: 'ROUTING' });
      const unrouted = await textFromNewPhone(c, c.lines.support, 'Anyone there?');
      expect(await heard(c, 'new_message', about(unrouted))).toEqual(['owner', 'admin']);
      // The number's earlier conversation follows its routing now: Sue no longer hears its texts either.
      expect(await textFromNewPhone(c, c.lines.support, 'Still broken', customer)).toBe(support);
      expect(await heard(c, 'new_message', (e) => e.data.message.body === 'Still broken')).toEqual(['owner', 'admin']);
    } finally {
      await c.close();
    }
  });

  it('a reply and its delivery reach those who see the conversation; a note also reaches the agents it mentions', async () => {
    const c = await company();
    try {
      const sales = await textFromNewPhone(c, c.lines.sales, 'What does the blue one cost?');
      const reply = await sendText(c.members.sales, sales, 'It is $20.');
      expect(reply.status).toBe(201);
      const replyId = reply.body.data.message.id;
      expect(await heard(c, 'message_sent', about(sales))).toEqual(['owner', 'admin', 'sales']);
      // Twilio's status callbacks follow (the emulator's carrier steps): each goes to the same members.
      await c.sockets.sales.next('message_status_updated', (e) => e.data.message.id === replyId);
      expect(await heard(c, 'message_status_updated', (e) => e.data.message.id === replyId)).toEqual(['owner', 'admin', 'sales']);

      const note = await addNote(c.members.owner, sales, '@Lin Loner can you call them back?');
      expect(note.status).toBe(201);
      expect(note.body.data.message.mentions).toEqual([{ id: c.members.loner.user.id, name: 'Lin Loner' }]);
      expect(await heard(c, 'note_added', about(sales))).toEqual(['owner', 'admin', 'sales', 'loner']);
    } finally {
      await c.close();
    }
  });

  it('an assignment reaches those who see the conversation; one it takes away from its former assignee tells them their view changed', async () => {
    const c = await company();
    try {
      const support = await textFromNewPhone(c, c.lines.support, 'Where is my refund?');
      const assign = (id: string, userId: string | null) =>
        callRoute(endpoints.assignConversation, {
          params: { id },
          token: c.members.owner.tokens.accessToken,
          body: { userId },
        });
      expect((await assign(support, c.members.support.user.id)).status).toBe(200);
      expect(await heard(c, 'conversation_assigned', about(support))).toEqual(['owner', 'admin', 'support']);

      // A text to Lin's private line starts assigned to her; once the line routes to no one she sees it
      // only as its assignee, and unassigning it takes it from her: she is told, not sent the conversation.
      const personal = await textFromNewPhone(c, c.lines.private, 'Call me back, Lin');
      await routeChannel(c.members.owner, c.lines.private.channel, 'UNASSIGNED');
      expect(await heard(c, 'visibility_changed')).toEqual(['loner']);
      expect((await assign(personal, null)).status).toBe(200);
      expect(await heard(c, 'conversation_assigned', about(personal))).toEqual(['owner', 'admin']);
      expect(c.sockets.loner.log.filter((e) => e.type === 'visibility_changed').map((e) => e.data)).toEqual([
        { reason: 'ROUTING' },
        { reason: 'ASSIGNMENT' },
      ]);
    } finally {
      await c.close();
    }
  });

  it('leaving an inbox, joining one and a new role are told to that member alone', async () => {
    const c = await company();
    try {
      const { owner, sales, loner } = c.members;
      const removed = await callRoute(endpoints.removeInboxMember, {
        params: { id: c.inboxes.sales.id, userId: sales.user.id },
        token: owner.tokens.accessToken,
      });
      expect(removed.status).toBe(200);
      expect(await heard(c, 'visibility_changed')).toEqual(['sales']);
      // Sam no longer hears Sales' texts.
      const text = await textFromNewPhone(c, c.lines.sales, 'Is the shop open on Sunday?');
      expect(await heard(c, 'new_message', about(text))).toEqual(['owner', 'admin']);

      await addInboxMember(owner, c.inboxes.support.id, loner.user.id);
      expect(await heard(c, 'visibility_changed')).toEqual(['sales', 'loner']);
      const promoted = await callRoute(endpoints.updateUserRole, {
        params: { id: sales.user.id },
        token: owner.tokens.accessToken,
        body: { role: 'ADMIN' },
      });
      expect(promoted.status).toBe(200);
      expect(await heard(c, 'visibility_changed', (e) => e.data.reason === 'ROLE')).toEqual(['sales']);
      expect(c.sockets.sales.log.filter((e) => e.type === 'visibility_changed').map((e) => e.data)).toEqual([
        { reason: 'INBOX_MEMBERSHIP' },
        { reason: 'ROLE' },
      ]);
      expect(c.sockets.loner.log.filter((e) => e.type === 'visibility_changed').map((e) => e.data)).toEqual([
        { reason: 'INBOX_MEMBERSHIP' },
      ]);
    } finally {
      await c.close();
    }
  });
});
