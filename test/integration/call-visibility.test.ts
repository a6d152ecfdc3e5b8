import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { keys } from '../../functions/lib/table';
import { type CallRecord, callItem } from '../../functions/voice/call-records';
import type { Call } from '../../shared/contract/calls';
import type { Channel } from '../../shared/contract/settings';
import { type Account, callRoute, signUp } from '../support/api';
import { putItems } from '../support/conversations';
import { endpoints } from '../support/endpoints';
import { openSocket, type Socket } from '../support/realtime';
import { createInbox, withChannel } from '../support/settings';
import { newPhone, type SmsLine, textIn } from '../support/sms';
import { testTable } from '../support/table';
import { addTeamMember } from '../support/team';
import { answerCall, callFromPhone, hangUpCall, numberOf, numbersByKind, speakOnCall } from '../support/twilio';
import { addInboxMember, identityOf, listCalls, routeChannel } from '../support/voice';

/**
 * Calls by who sees what (docs/product.md: Who sees what), role by role: a Sales inbox's number and a
 * private line take real calls through the Twilio emulator; a Support inbox's number and a number
 * routed to no one hold calls as the voice webhooks store them. Owners and admins see every call; an
 * agent the calls of their inbox's or their own line's number and those they answered; an agent in no
 * inbox none. Call History, its filters, the voicemail audio, the contact timeline and the call events
 * follow it; what is hidden answers 404 as a missing call does.
 */

let owner: Account;
let admin: Account;
let sales: Account;
let support: Account;
let liner: Account;
let stranger: Account;
let sockets: Record<'owner' | 'admin' | 'sales' | 'support' | 'liner' | 'stranger', Socket>;
let salesLine: SmsLine;
let supportLine: SmsLine;
let privateLine: Channel;
let caller: string;
const ids = { salesVoicemail: '', salesAnswered: '', privateVoicemail: '', supportVoicemail: '', unassigned: '' };

async function importNumber(account: Account, line: SmsLine, sid: string, phoneNumber: string, voice: boolean, sms: boolean) {
  const imported = await callRoute(endpoints.importChannels, {
    params: { id: line.provider.id },
    token: account.tokens.accessToken,
    body: { numbers: [{ sid, phoneNumber, capabilities: { voice, sms } }] },
  });
  const channel = imported.body.data?.channels[0];
  if (!channel) throw new Error(`import: ${JSON.stringify(imported.body)}`);
  return channel;
}

/** A finished call as the voice webhooks store it, with its voicemail when asked: the call, its CallSid and voicemail links. */
async function storedCall(channel: { id: string; identifier: string }, voicemail: boolean): Promise<string> {
  const companyId = owner.company.id;
  const at = new Date().toISOString();
  const sid = `CA${randomUUID().replaceAll('-', '')}`;
  const record: CallRecord = {
    id: randomUUID(),
    companyId,
    direction: 'INBOUND',
    providerCallId: sid,
    channelId: channel.id,
    channelPhoneNumber: channel.identifier,
    contactId: null,
    contactPhoneNumber: caller,
    createdAt: at,
    rungUserIds: [],
    declinedUserIds: [],
    acceptedUserIds: [],
    answeredBy: null,
    outcome: 'NO_ANSWER',
    twilioStatus: 'completed',
    twilioDurationSeconds: 0,
    legs: {},
    dial: null,
    callStatus: 'NO_ANSWER',
    durationSeconds: 0,
    endedAt: at,
    version: 1,
    voicemail: voicemail
      ? {
          durationSeconds: 4,
          recordingSid: `RE${randomUUID().replaceAll('-', '')}`,
          recordingUrl: `/2010-04-01/Accounts/${salesLine.twilio.accountSid}/Recordings/RE0`,
          createdAt: at,
          listenedAt: null,
        }
      : null,
  };
  await putItems(testTable(), [
    callItem(record),
    { ...keys.callSid(sid), entity: 'CALL_SID', companyId, callId: record.id, createdAt: at },
    ...(voicemail ? [{ ...keys.voicemail(companyId, record.id), entity: 'VOICEMAIL', callSid: sid, createdAt: at }] : []),
  ]);
  return record.id;
}

const callsOf = async (account: Account, query: Record<string, string> = {}) => {
  const res = await listCalls(account, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.calls;
};
const idsOf = async (account: Account, query: Record<string, string> = {}) =>
  (await callsOf(account, query)).map((c) => c.id).sort();

/** The call of a CallSid once it has ended (and, when asked, once its voicemail is on it). */
function settled(sid: string, withVoicemail = false): Promise<Call> {
  return vi.waitFor(
    async () => {
      const found = (await callsOf(owner)).find((c) => c.providerCallId === sid);
      if (!found || !/COMPLETED|NO_ANSWER/.test(found.callStatus)) throw new Error(`the call is still ${found?.callStatus}`);
      if (withVoicemail && !found.voicemail) throw new Error('the voicemail is not on the call yet');
      return found;
    },
    { timeout: 15_000, interval: 50 },
  );
}

/** A caller nobody answers (no phone ready): a voicemail at once, on the call once it is kept. */
async function voicemailTo(identifier: string): Promise<string> {
  const call = await callFromPhone({ from: caller, to: identifier });
  await speakOnCall(call.sid, 2);
  await hangUpCall(call.sid);
  return (await settled(call.sid, true)).id;
}

beforeAll(async () => {
  owner = await signUp({ companyName: 'Who Sees Calls' });
  const { provider, channel, twilio } = await withChannel(owner);
  const salesNumber = twilio.numbers.find((n) => n.phone_number === channel.identifier);
  if (!salesNumber) throw new Error('no sales number');
  salesLine = { account: owner, provider, channel, twilio, smsUrl: (await numberOf(twilio, salesNumber.sid)).sms_url };
  const { voiceOnly, smsOnly } = numbersByKind(twilio);
  const [supportChannel, privateChannel] = await Promise.all([
    importNumber(owner, salesLine, smsOnly.sid, smsOnly.phone_number, false, true),
    importNumber(owner, salesLine, voiceOnly.sid, voiceOnly.phone_number, true, false),
  ]);
  privateLine = privateChannel;
  supportLine = { ...salesLine, channel: supportChannel, smsUrl: (await numberOf(twilio, smsOnly.sid)).sms_url };
  [admin, sales, support, liner, stranger] = await Promise.all([
    addTeamMember(owner, { role: 'ADMIN', name: 'Ada Admin' }),
    addTeamMember(owner, { name: 'Sam Sales' }),
    addTeamMember(owner, { name: 'Sue Support' }),
    addTeamMember(owner, { name: 'Lee Line' }),
    addTeamMember(owner, { name: 'Nia Nobody' }),
  ]);
  const [salesInbox, supportInbox] = await Promise.all([createInbox(owner, 'Sales'), createInbox(owner, 'Support')]);
  await addInboxMember(owner, salesInbox.id, sales.user.id);
  await addInboxMember(owner, supportInbox.id, support.user.id);
  await routeChannel(owner, salesLine.channel, 'INBOX', salesInbox.id);
  await routeChannel(owner, supportLine.channel, 'INBOX', supportInbox.id);
  await routeChannel(owner, privateLine, 'USER', liner.user.id);
  const accounts = { owner, admin, sales, support, liner, stranger };
  const opened = await Promise.all(Object.values(accounts).map((a) => openSocket(a)));
  sockets = Object.fromEntries(Object.keys(accounts).map((name, i) => [name, opened[i]])) as typeof sockets;

  caller = newPhone();
  // The caller texts both inboxes' numbers: a conversation on each, for the timeline.
  for (const line of [salesLine, supportLine]) {
    const answer = await textIn(line, { from: caller, body: `Hello ${line.channel.identifier}` });
    if (answer.status !== 200) throw new Error(`text: ${answer.status} ${answer.text}`);
  }

  ids.salesVoicemail = await voicemailTo(salesLine.channel.identifier);
  ids.privateVoicemail = await voicemailTo(privateLine.identifier);
  // Sam's phone is ready: the Sales number rings Sam, who answers.
  await sockets.sales.phone(true);
  const taken = await callFromPhone({ from: caller, to: salesLine.channel.identifier });
  await answerCall(taken.sid, `client:${identityOf(sales)}`);
  await hangUpCall(taken.sid);
  ids.salesAnswered = (await settled(taken.sid)).id;
  await sockets.sales.phone(false);

  const unassignedChannel = { id: randomUUID(), identifier: newPhone() };
  await putItems(testTable(), [
    {
      ...keys.channel(owner.company.id, unassignedChannel.id),
      entity: 'CHANNEL',
      id: unassignedChannel.id,
      companyId: owner.company.id,
      type: 'PHONE',
      identifier: unassignedChannel.identifier,
      status: 'ACTIVE',
      capabilities: { voice: true, sms: false, mms: false },
      enabled: { voice: true, sms: false },
      providerId: null,
      numberSid: null,
      previousUrls: {},
      routingType: 'UNASSIGNED',
      routingTargetId: null,
      createdAt: new Date().toISOString(),
    },
  ]);
  ids.supportVoicemail = await storedCall({ id: supportLine.channel.id, identifier: supportLine.channel.identifier }, true);
  ids.unassigned = await storedCall(unassignedChannel, true);
  // Every event of the calls above has reached each socket.
  await Promise.all(Object.values(sockets).map((s) => s.beat()));
}, 240_000);

afterAll(async () => {
  await Promise.all(Object.values(sockets ?? {}).map((s) => s.close()));
});

describe('Call History by who sees what', () => {
  it('owners and admins list every call; an agent their inbox’s, their line’s and what they answered; an agent in no inbox none', async () => {
    const all = Object.values(ids).sort();
    expect(await idsOf(owner)).toEqual(all);
    expect(await idsOf(admin)).toEqual(all);
    expect(await idsOf(sales)).toEqual([ids.salesVoicemail, ids.salesAnswered].sort());
    expect(await idsOf(support)).toEqual([ids.supportVoicemail]);
    expect(await idsOf(liner)).toEqual([ids.privateVoicemail]);
    expect(await idsOf(stranger)).toEqual([]);
  });

  it('the filters keep to what the agent sees, newest first', async () => {
    expect(await idsOf(sales, { voicemail: 'true' })).toEqual([ids.salesVoicemail]);
    expect(await idsOf(sales, { status: 'COMPLETED' })).toEqual([ids.salesAnswered]);
    expect(await idsOf(sales, { status: 'NO_ANSWER' })).toEqual([ids.salesVoicemail]);
    expect(await idsOf(stranger, { voicemail: 'true' })).toEqual([]);
    expect((await callsOf(sales, { limit: '1' })).map((c) => c.id)).toEqual([ids.salesAnswered]);
    expect(await idsOf(owner, { voicemail: 'true' })).toEqual(
      [ids.salesVoicemail, ids.privateVoicemail, ids.supportVoicemail, ids.unassigned].sort(),
    );
  });
});

describe('voicemail audio by who sees what', () => {
  const play = (account: Account, id: string) =>
    callRoute(endpoints.voicemailAudio, { params: { id }, token: account.tokens.accessToken });

  it('answers 404 as for a missing call to an agent who does not see it, and marks nothing listened', async () => {
    const missing = await play(sales, 'no-such-call');
    expect(missing.status).toBe(404);
    for (const [account, id] of [
      [sales, ids.privateVoicemail],
      [sales, ids.unassigned],
      [support, ids.salesVoicemail],
      [stranger, ids.salesVoicemail],
      [stranger, ids.privateVoicemail],
      [liner, ids.supportVoicemail],
    ] as const) {
      const res = await play(account, id);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(missing.body);
    }
    const listened = (await callsOf(owner, { voicemail: 'true' })).filter((c) => c.voicemail?.listened);
    expect(listened).toEqual([]);
  });

  it('plays for the agent whose line it was left on, and marks it listened', async () => {
    const res = await play(liner, ids.privateVoicemail);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    const [call] = await callsOf(liner);
    expect(call).toMatchObject({ id: ids.privateVoicemail, voicemail: { listened: true } });
  });
});

describe('call events by who sees what', () => {
  const received = (name: keyof typeof sockets, type: 'voicemail_received' | 'call_answered' | 'call_ended' | 'incoming_call') =>
    sockets[name].log.filter((e) => e.type === type);

  it('voicemail_received reaches the owner, the admins and the agents who see the call, and no one else', () => {
    const heard = (name: keyof typeof sockets) =>
      received(name, 'voicemail_received')
        .map((e) => (e.data as { callId: string }).callId)
        .sort();
    expect(heard('owner')).toEqual([ids.salesVoicemail, ids.privateVoicemail].sort());
    expect(heard('admin')).toEqual([ids.salesVoicemail, ids.privateVoicemail].sort());
    expect(heard('sales')).toEqual([ids.salesVoicemail]);
    expect(heard('liner')).toEqual([ids.privateVoicemail]);
    expect(heard('support')).toEqual([]);
    expect(heard('stranger')).toEqual([]);
  });

  it('the ring, its answer and the end go only to who sees the call', async () => {
    const { providerCallId: answeredSid } = (await callsOf(owner)).find((c) => c.id === ids.salesAnswered) as Call;
    const of = (name: keyof typeof sockets, type: 'call_answered' | 'call_ended' | 'incoming_call') =>
      received(name, type).filter((e) => (e.data as { callSid: string }).callSid === answeredSid).length;
    // Only the phone it rang hears the ring.
    expect(Object.keys(sockets).filter((name) => of(name as keyof typeof sockets, 'incoming_call') > 0)).toEqual(['sales']);
    for (const type of ['call_answered', 'call_ended'] as const) {
      expect(
        Object.keys(sockets)
          .filter((name) => of(name as keyof typeof sockets, type) > 0)
          .sort(),
        type,
      ).toEqual(['admin', 'owner', 'sales']);
    }
    const ended = (name: keyof typeof sockets) => received(name, 'call_ended').length;
    expect(ended('support')).toBe(0);
    expect(ended('stranger')).toBe(0);
  });
});

describe('the contact timeline by who sees what', () => {
  async function timeline(account: Account) {
    const contacts = await callRoute(endpoints.listContacts, { token: owner.tokens.accessToken, query: { search: caller } });
    const contact = contacts.body.data.contacts.find((c) => c.phoneNumber === caller);
    if (!contact?.id) throw new Error('no contact for the caller');
    const res = await callRoute(endpoints.contactTimeline, { params: { id: contact.id }, token: account.tokens.accessToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.items;
  }
  const callIds = (items: Awaited<ReturnType<typeof timeline>>) =>
    items.flatMap((i) => (i.kind === 'CALL' || i.kind === 'VOICEMAIL' ? [i.call.id] : [])).sort();
  const texts = (items: Awaited<ReturnType<typeof timeline>>) =>
    items.flatMap((i) => (i.kind === 'TEXT' ? [i.message.body] : [])).sort();

  it('holds only the calls and conversations the member sees', async () => {
    const ownerView = await timeline(owner);
    expect(callIds(ownerView)).toEqual([ids.salesVoicemail, ids.salesAnswered, ids.privateVoicemail].sort());
    expect(texts(ownerView)).toEqual([`Hello ${salesLine.channel.identifier}`, `Hello ${supportLine.channel.identifier}`].sort());
    const salesView = await timeline(sales);
    expect(callIds(salesView)).toEqual([ids.salesVoicemail, ids.salesAnswered].sort());
    expect(texts(salesView)).toEqual([`Hello ${salesLine.channel.identifier}`]);
    const supportView = await timeline(support);
    expect(callIds(supportView)).toEqual([]);
    expect(texts(supportView)).toEqual([`Hello ${supportLine.channel.identifier}`]);
    expect(callIds(await timeline(liner))).toEqual([ids.privateVoicemail]);
    expect(await timeline(stranger)).toEqual([]);
  });
});

describe("the contact's counts by who sees what", () => {
  it('count the calls and conversations the member sees', async () => {
    const counts = async (account: Account) => {
      const res = await callRoute(endpoints.listContacts, { token: account.tokens.accessToken, query: { search: caller } });
      const contact = res.body.data.contacts.find((c) => c.phoneNumber === caller);
      return { calls: contact?.callCount, conversations: contact?.conversationCount };
    };
    expect(await counts(owner)).toEqual({ calls: 3, conversations: 2 });
    expect(await counts(admin)).toEqual({ calls: 3, conversations: 2 });
    expect(await counts(sales)).toEqual({ calls: 2, conversations: 1 });
    expect(await counts(support)).toEqual({ calls: 0, conversations: 1 });
    expect(await counts(liner)).toEqual({ calls: 1, conversations: 0 });
    expect(await counts(stranger)).toEqual({ calls: 0, conversations: 0 });

    // An agent's edit answers with their counts; the event that tells the others carries none.
    const contactId = (await callRoute(endpoints.listContacts, { token: owner.tokens.accessToken, query: { search: caller } }))
      .body.data.contacts[0]?.id as string;
    const edited = await callRoute(endpoints.updateContact, {
      params: { id: contactId },
      token: support.tokens.accessToken,
      body: { notes: 'Asked about a refund' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data.contact).toMatchObject({ callCount: 0, conversationCount: 1 });
    const told = await sockets.owner.next('contact_changed');
    expect(told.data.contact).toMatchObject({ id: contactId, notes: 'Asked about a refund' });
    expect(told.data.contact).not.toHaveProperty('callCount');
    expect(told.data.contact).not.toHaveProperty('conversationCount');
  });
});

describe('routing and membership now', () => {
  it('an agent taken out of the inbox keeps only the call they answered', async () => {
    const inboxes = await callRoute(endpoints.listInboxes, { token: owner.tokens.accessToken });
    const salesInbox = inboxes.body.data.inboxes.find((i) => i.name === 'Sales');
    if (!salesInbox) throw new Error('no Sales inbox');
    const removed = await callRoute(endpoints.removeInboxMember, {
      params: { id: salesInbox.id, userId: sales.user.id },
      token: owner.tokens.accessToken,
    });
    expect(removed.status).toBe(200);
    expect(await idsOf(sales)).toEqual([ids.salesAnswered]);
    const audio = await callRoute(endpoints.voicemailAudio, {
      params: { id: ids.salesVoicemail },
      token: sales.tokens.accessToken,
    });
    expect(audio.status).toBe(404);
  });
});
