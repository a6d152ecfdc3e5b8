import { describe, expect, it } from 'vitest';
import { formatPhoneNumber } from '../../shared/phone-numbers';
import { type Account, callRoute, unchecked } from '../support/api';
import { endpoints } from '../support/endpoints';
import { createInbox } from '../support/settings';
import { conversationWith, newPhone, readConversation, smsLine, socketsClosedAfterEach, textIn } from '../support/sms';
import { addTeamMember } from '../support/team';
import { emulatorMessages } from '../support/twilio';

const listen = socketsClosedAfterEach();

const OPTED_OUT = 'This contact opted out of texts from this number (they replied STOP). They can text START to opt back in.';

function start(account: Account, body: { to: unknown; channelId: unknown; body: unknown }) {
  return callRoute(endpoints.startConversation, { token: account.tokens.accessToken, body: unchecked(body) });
}

/** What Twilio was asked to send from the account's numbers. */
async function sentByTwilio(accountSid: string) {
  return (await emulatorMessages(accountSid)).filter((m) => m.direction === 'outbound-api');
}

describe('starting a conversation', () => {
  it('texts a number that never texted: the contact and an open conversation are made, assigned to the sender', async () => {
    const line = await smsLine();
    const socket = await listen(line);
    const phone = newPhone();
    // As people type it: national notation for the company's country (a US number's).
    const typed = formatPhoneNumber(phone, 'US');

    const res = await start(line.account, { to: typed, channelId: line.channel.id, body: 'Hello from Switchboard' });
    expect(res.status).toBe(201);
    const { conversation } = res.body.data;
    expect(conversation).toMatchObject({
      status: 'OPEN',
      contact: { phoneNumber: phone, name: '' },
      channel: { id: line.channel.id, identifier: line.channel.identifier },
      lastMessage: { direction: 'OUTBOUND', body: 'Hello from Switchboard' },
      messageCount: 1,
      optedOut: false,
      assignee: { id: line.account.user.id, name: line.account.user.name },
      unreadCount: 0,
    });
    const sent = await socket.next('message_sent', (e) => e.data.conversationId === conversation.id);
    expect(sent.data.conversation.messageCount).toBe(1);
    expect(await sentByTwilio(line.twilio.accountSid)).toEqual([
      expect.objectContaining({ from: line.channel.identifier, to: phone, body: 'Hello from Switchboard' }),
    ]);

    // The contact book has the number now.
    const contacts = await callRoute(endpoints.listContacts, {
      token: line.account.tokens.accessToken,
      query: { search: phone },
    });
    expect(contacts.body.data.contacts.map((c) => c.phoneNumber)).toEqual([phone]);

    // A second "new message" to the same number goes to the same conversation.
    const again = await start(line.account, { to: phone, channelId: line.channel.id, body: 'One more thing' });
    expect(again.status).toBe(200);
    expect(again.body.data.conversation).toMatchObject({ id: conversation.id, messageCount: 2 });
    const thread = await readConversation(line.account, conversation.id);
    expect(thread.body.data.conversation.messages.map((m) => m.body)).toEqual(['Hello from Switchboard', 'One more thing']);
  });

  it('reuses the conversation of a number that texted in, and reopens it when it was closed', async () => {
    const line = await smsLine();
    const socket = await listen(line);
    const phone = newPhone();
    const conversationId = await conversationWith(line, socket, phone, 'Is the shop open?');
    const token = line.account.tokens.accessToken;
    await callRoute(endpoints.updateConversationStatus, { params: { id: conversationId }, token, body: { status: 'CLOSED' } });

    const res = await start(line.account, { to: phone, channelId: line.channel.id, body: 'We open at nine.' });
    expect(res.status).toBe(200);
    expect(res.body.data.conversation).toMatchObject({
      id: conversationId,
      status: 'OPEN',
      messageCount: 2,
      lastMessage: { direction: 'OUTBOUND', body: 'We open at nine.' },
    });
  });

  it('refuses an opted-out number with the thread’s sentence, and sends nothing', async () => {
    const line = await smsLine();
    const socket = await listen(line);
    const phone = newPhone();
    await textIn(line, { from: phone, body: 'STOP' });
    await socket.next('new_message', (e) => e.data.conversation.contact.phoneNumber === phone);

    const res = await start(line.account, { to: phone, channelId: line.channel.id, body: 'Sale today!' });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'OPTED_OUT', message: OPTED_OUT });
    expect(await sentByTwilio(line.twilio.accountSid)).toEqual([]);
  });

  it('says what is wrong with the number, the sending number or the text', async () => {
    const line = await smsLine();
    const channelId = line.channel.id;
    const cases: [unknown, unknown, unknown, string][] = [
      ['', channelId, 'Hi', 'Please enter a phone number'],
      ['hello', channelId, 'Hi', 'Please enter a valid phone number'],
      ['(123) 456-7890', channelId, 'Hi', 'Invalid phone number for United States'],
      [newPhone(), '', 'Hi', 'Choose a number to send from'],
      [newPhone(), channelId, '   ', 'Message content must not be empty'],
    ];
    for (const [to, channel, body, message] of cases) {
      const res = await start(line.account, { to, channelId: channel, body });
      expect({ status: res.status, message: res.body.error.message }).toEqual({ status: 400, message });
    }
    expect(await sentByTwilio(line.twilio.accountSid)).toEqual([]);
  });

  it('another company’s sending number is not found, and nothing is sent from it', async () => {
    const mine = await smsLine();
    const theirs = await smsLine();
    const res = await start(mine.account, { to: newPhone(), channelId: theirs.channel.id, body: 'Hi' });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe('Sending number not found');
    expect(await sentByTwilio(theirs.twilio.accountSid)).toEqual([]);
    const list = await callRoute(endpoints.listConversations, { token: theirs.account.tokens.accessToken, query: {} });
    expect(list.body.data.conversations).toEqual([]);
  });

  it('offers the numbers a member may send from, with their inbox names, and refuses the others', async () => {
    const line = await smsLine();
    const token = line.account.tokens.accessToken;
    const agent = await addTeamMember(line.account);
    const numbers = (account: Account) =>
      callRoute(endpoints.listSendingNumbers, { token: account.tokens.accessToken }).then((r) => r.body.data.sendingNumbers);

    // Unassigned: the owners' and admins', who alone see what comes in on it (docs/product.md: Who sees what).
    const unassigned = { channelId: line.channel.id, phoneNumber: line.channel.identifier, mms: true, inboxName: null };
    expect(await numbers(line.account)).toEqual([unassigned]);
    expect(await numbers(agent)).toEqual([]);
    const notTheirs = await start(agent, { to: newPhone(), channelId: line.channel.id, body: 'Hi' });
    expect(notTheirs.status).toBe(403);

    // Routed to an inbox the agent is not in: the owner's (a member of it), not the agent's.
    const inbox = await createInbox(line.account, 'Sales');
    await callRoute(endpoints.addInboxMember, { params: { id: inbox.id }, token, body: { userId: line.account.user.id } });
    await callRoute(endpoints.updateChannelRouting, {
      params: { id: line.channel.id },
      token,
      body: { routingType: 'INBOX', routingTargetId: inbox.id },
    });
    expect(await numbers(line.account)).toEqual([{ ...unassigned, inboxName: 'Sales' }]);
    expect(await numbers(agent)).toEqual([]);
    const refused = await start(agent, { to: newPhone(), channelId: line.channel.id, body: 'Hi' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(
      `You cannot start conversations from ${formatPhoneNumber(line.channel.identifier, 'US')}: it is routed to an inbox you are not a member of, to another member, or to no one.`,
    );
  });
});
