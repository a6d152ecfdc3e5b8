import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keys } from '../../functions/lib/table';
import {
  DEFAULT_VOICEMAIL_GREETING,
  PHONE_READY_LAPSE_SECONDS,
  PHONE_RELOAD_GRACE_SECONDS,
  SOCKET_CHECK_IN_MS,
} from '../../shared/constants';
import { socketPath } from '../../shared/contract/realtime-events';
import { TWILIO_WEBHOOKS } from '../../shared/contract/route';
import { type Account, callRoute, signUp } from '../support/api';
import { endpoints } from '../support/endpoints';
import { ownGateway } from '../support/own-gateway';
import { openSocket, openSocketAt, ticketFor } from '../support/realtime';
import { createInbox } from '../support/settings';
import { newPhone } from '../support/sms';
import { itemsUnder, testTable } from '../support/table';
import { addTeamMember } from '../support/team';
import { callFromPhone, hangUpCall, newTwilioAccount, numbersByKind } from '../support/twilio';
import { addInboxMember, identityOf, listCalls, routeChannel, voiceLine } from '../support/voice';

/**
 * docs/product.md §10.5 Phone ready: a member can take calls while a tab of theirs has a live socket
 * and said its phone is registered (`device_state`); a call that no member's phone can take goes to
 * voicemail at once.
 */

const phoneReady = async (viewer: Account, member: Account, call = callRoute) =>
  (await call(endpoints.listUsers, { token: viewer.tokens.accessToken })).body.data.users.find((u) => u.id === member.user.id)
    ?.phoneReady;

describe('a member’s phone', () => {
  it('is ready while a socket of theirs reports it registered; reporting otherwise or closing the socket takes it away', async () => {
    const owner = await signUp();
    const agent = await addTeamMember(owner, { name: 'Agent Smith' });
    const inbox = await createInbox(owner, 'Front desk');
    await addInboxMember(owner, inbox.id, agent.user.id);
    const members = async () =>
      (await callRoute(endpoints.getInbox, { params: { id: inbox.id }, token: owner.tokens.accessToken })).body.data.inbox
        .members;
    const watcher = await openSocket(owner);
    const tab = await openSocket(agent);
    expect(await phoneReady(owner, agent)).toBe(false);
    expect(await members()).toMatchObject([{ userId: agent.user.id, phoneReady: false }]);

    await tab.phone(true);
    expect(await phoneReady(owner, agent)).toBe(true);
    expect(await members()).toMatchObject([{ userId: agent.user.id, phoneReady: true }]);
    expect((await watcher.next('phone_status_changed')).data).toEqual({ userId: agent.user.id, phoneReady: true });

    await tab.phone(false);
    expect(await phoneReady(owner, agent)).toBe(false);
    expect((await watcher.next('phone_status_changed')).data).toEqual({ userId: agent.user.id, phoneReady: false });

    // Two tabs: closing one leaves the member ready; closing the last does not.
    const second = await openSocket(agent);
    await Promise.all([tab.phone(true), second.phone(true)]);
    await tab.close();
    await watcher.beat();
    expect(await phoneReady(owner, agent)).toBe(true);
    await second.close();
    expect((await watcher.next('phone_status_changed', (e) => !e.data.phoneReady)).data).toEqual({
      userId: agent.user.id,
      phoneReady: false,
    });
    expect(await phoneReady(owner, agent)).toBe(false);
    await watcher.close();
  });

  it('says which field is wrong in a device_state it cannot read, and keeps the socket', async () => {
    const owner = await signUp();
    const tab = await openSocket(owner);
    tab.send({ type: 'device_state', data: { registered: 'yes' } });
    expect((await tab.next('error')).data).toEqual({
      code: 'INVALID_MESSAGE',
      message: 'device_state: registered must be true or false',
    });
    expect(await phoneReady(owner, owner)).toBe(false);
    await tab.phone(true);
    expect(await phoneReady(owner, owner)).toBe(true);
    await tab.close();
  });
});

describe('a device_state from a socket whose member was removed', () => {
  /**
   * The moment between a removal's write and its closing of the member's sockets
   * (functions/team/members.ts), held still: the removal itself closes them a moment later.
   */
  const markRemoved = async (member: Account) => {
    const { client, tableName } = testTable();
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.user(member.company.id, member.user.id),
        UpdateExpression: 'SET removedAt = :now',
        ExpressionAttributeValues: { ':now': new Date().toISOString() },
      }),
    );
  };
  /** The member's ready phones as the voice webhook reads them, closed sockets within the grace included. */
  const readyPhones = (member: Account) => itemsUnder(keys.phonesReadyOfUser(member.company.id, member.user.id));

  it('closes the socket and leaves the member unreachable', async () => {
    const owner = await signUp();
    const agent = await addTeamMember(owner, { name: 'Agent Smith' });
    const watcher = await openSocket(owner);
    const tab = await openSocket(agent);
    await markRemoved(agent);
    tab.send({ type: 'device_state', data: { registered: true } });
    const answer = await Promise.race([
      tab.closed.then(() => 'closed'),
      tab.next('device_state_ack').then(
        () => 'acknowledged',
        () => 'closed',
      ),
    ]);
    expect(answer).toBe('closed');
    expect(tab.log.filter((e) => e.type === 'device_state_ack')).toEqual([]);
    expect(await readyPhones(agent)).toEqual([]);
    // The others see them leave, and never see their phone ready.
    expect((await watcher.next('user_left', (e) => e.data.id === agent.user.id)).data).toEqual({ id: agent.user.id });
    await watcher.beat();
    expect(watcher.log.filter((e) => e.type === 'phone_status_changed')).toEqual([]);
    await watcher.close();
  });
});

describe('a tab that stops checking in', () => {
  // The lapse is read from the clock: this file's own gateway runs the functions here, on a clock the test moves.
  const gateway = ownGateway({ functions: 'in-process' });
  afterEach(() => {
    vi.useRealTimers();
  });

  const openHere = async (owner: Account) => {
    const ticket = await ticketFor(owner);
    const query = new URLSearchParams({ ticket, userId: owner.user.id, companyId: owner.company.id });
    return openSocketAt(`ws://${gateway.host}${socketPath(owner.company.id)}?${query}`, owner.user.id);
  };

  it(`takes its member's phone away once ${PHONE_READY_LAPSE_SECONDS / 60} minutes pass without a report`, async () => {
    const owner = await signUp();
    const tab = await openHere(owner);
    const start = Date.now();
    vi.useFakeTimers({ now: start, toFake: ['Date'] });
    await tab.phone(true);
    vi.setSystemTime(start + (PHONE_READY_LAPSE_SECONDS - 1) * 1000);
    expect(await phoneReady(owner, owner, gateway.callRoute)).toBe(true);
    vi.setSystemTime(start + (PHONE_READY_LAPSE_SECONDS + 1) * 1000);
    expect(await phoneReady(owner, owner, gateway.callRoute)).toBe(false);
    await tab.close();
  });

  it('keeps it for another lapse with each check-in’s report', async () => {
    const owner = await signUp();
    const tab = await openHere(owner);
    const start = Date.now();
    vi.useFakeTimers({ now: start, toFake: ['Date'] });
    await tab.phone(true);
    vi.setSystemTime(start + SOCKET_CHECK_IN_MS);
    await tab.phone(true);
    vi.setSystemTime(start + (PHONE_READY_LAPSE_SECONDS + 1) * 1000);
    expect(await phoneReady(owner, owner, gateway.callRoute)).toBe(true);
    await tab.close();
  });
});

describe('a call with no member’s phone ready', () => {
  it('goes to voicemail at once, rings nobody, and Call History says No one was available', async () => {
    const line = await voiceLine({ members: 2, phonesReady: false });
    const call = await callFromPhone({ from: newPhone(), to: line.channel.identifier });
    expect(call.legs).toEqual([]);
    expect(call.said.join(' ')).toContain(DEFAULT_VOICEMAIL_GREETING);
    expect(call.status).toBe('in-progress');
    const [record] = (await listCalls(line.owner)).body.data.calls;
    expect(record).toMatchObject({ providerCallId: call.sid, callStatus: 'NO_ANSWER', missedReason: 'No one was available' });
    await hangUpCall(call.sid);
    // Nobody was told of a call ringing them.
    await Promise.all(line.sockets.map((s) => s.beat()));
    expect(line.sockets.flatMap((s) => s.log.filter((e) => e.type === 'incoming_call'))).toEqual([]);
    await Promise.all(line.sockets.map((s) => s.close()));
  });

  it('to a number routed to one member whose phone is offline goes to voicemail at once too', async () => {
    const line = await voiceLine({ members: 2, routing: 'USER', phonesReady: false });
    // A colleague's ready phone does not count: the number rings its member only.
    await line.sockets[1]?.phone(true);
    const call = await callFromPhone({ from: newPhone(), to: line.channel.identifier });
    expect(call.legs).toEqual([]);
    expect((await listCalls(line.owner)).body.data.calls[0]).toMatchObject({ missedReason: 'No one was available' });
    await hangUpCall(call.sid);
    await Promise.all(line.sockets.map((s) => s.close()));
  });

  it('rings every member as before once one of them has a phone ready', async () => {
    const line = await voiceLine({ members: 3, phonesReady: false });
    await line.sockets[2]?.phone(true);
    const call = await callFromPhone({ from: newPhone(), to: line.channel.identifier });
    expect(call.legs.map((l) => l.to).sort()).toEqual(line.agents.map((a) => `client:${identityOf(a)}`).sort());
    expect(call.legs.every((l) => l.status === 'ringing')).toBe(true);
    for (const socket of line.sockets) expect((await socket.next('incoming_call')).data.callSid).toBe(call.sid);
    const [record] = (await listCalls(line.owner)).body.data.calls;
    expect(record?.callStatus).toBe('RINGING');
    expect(record?.missedReason).toBeUndefined();
    await hangUpCall(call.sid);
    await Promise.all(line.sockets.map((s) => s.close()));
  });
});

describe('a tab being reloaded', () => {
  // The number's calls come to this file's own gateway, whose functions run here on the clock the test moves.
  const gateway = ownGateway({
    functions: 'in-process',
    environment: (origin) => ({ WEBHOOK_BASE_URL: `${origin}${TWILIO_WEBHOOKS}` }),
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const openHere = async (account: Account) => {
    const ticket = await ticketFor(account);
    const query = new URLSearchParams({ ticket, userId: account.user.id, companyId: account.company.id });
    return openSocketAt(`ws://${gateway.host}${socketPath(account.company.id)}?${query}`, account.user.id);
  };

  /** A number routed to the owner alone, imported through this gateway: Twilio calls it here. */
  const lineHere = async (owner: Account) => {
    const twilio = await newTwilioAccount();
    const { full } = numbersByKind(twilio);
    const token = owner.tokens.accessToken;
    const connected = await gateway.callRoute(endpoints.connectTwilio, {
      token,
      body: { accountSid: twilio.accountSid, authToken: twilio.authToken },
    });
    const imported = await gateway.callRoute(endpoints.importChannels, {
      params: { id: connected.body.data.provider.id },
      token,
      body: { numbers: [{ sid: full.sid, phoneNumber: full.phone_number, capabilities: { voice: true, sms: true } }] },
    });
    const channel = imported.body.data.channels[0];
    if (!channel) throw new Error(`import: ${JSON.stringify(imported.body)}`);
    await routeChannel(owner, channel, 'USER', owner.user.id);
    return channel;
  };

  it(`rings its member for ${PHONE_RELOAD_GRACE_SECONDS} s after the socket of their ready phone closed, then sends callers to voicemail at once`, async () => {
    const owner = await signUp();
    const channel = await lineHere(owner);
    const watcher = await openHere(owner);
    const tab = await openHere(owner);
    await tab.phone(true);
    const start = Date.now();
    vi.useFakeTimers({ now: start, toFake: ['Date'] });
    await tab.close();
    // Team says "Phone offline" at once: the grace is for a call's ring only.
    expect((await watcher.next('phone_status_changed', (e) => !e.data.phoneReady)).data).toEqual({
      userId: owner.user.id,
      phoneReady: false,
    });
    expect(await phoneReady(owner, owner, gateway.callRoute)).toBe(false);

    // The reloading tab has not reported its phone again yet: the call rings as usual.
    vi.setSystemTime(start + (PHONE_RELOAD_GRACE_SECONDS - 1) * 1000);
    const during = await callFromPhone({ from: newPhone(), to: channel.identifier });
    expect(during.legs.map((l) => [l.to, l.status])).toEqual([[`client:${identityOf(owner)}`, 'ringing']]);
    expect(during.said.join(' ')).not.toContain(DEFAULT_VOICEMAIL_GREETING);
    expect((await watcher.next('incoming_call')).data.callSid).toBe(during.sid);
    const rung = (await listCalls(owner)).body.data.calls.find((c) => c.providerCallId === during.sid);
    expect(rung?.callStatus).toBe('RINGING');
    expect(rung?.missedReason).toBeUndefined();
    await hangUpCall(during.sid);

    // No tab came back within the grace: nobody can take the call.
    vi.setSystemTime(start + (PHONE_RELOAD_GRACE_SECONDS + 1) * 1000);
    const after = await callFromPhone({ from: newPhone(), to: channel.identifier });
    expect(after.legs).toEqual([]);
    expect(after.said.join(' ')).toContain(DEFAULT_VOICEMAIL_GREETING);
    const missed = (await listCalls(owner)).body.data.calls.find((c) => c.providerCallId === after.sid);
    expect(missed).toMatchObject({ callStatus: 'NO_ANSWER', missedReason: 'No one was available' });
    await hangUpCall(after.sid);
    await watcher.close();
  });
});
