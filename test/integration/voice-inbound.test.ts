import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../functions/lib/table';
import { DEFAULT_VOICEMAIL_GREETING } from '../../shared/constants';
import { callRoute } from '../support/api';
import { endpoints } from '../support/endpoints';
import { newPhone } from '../support/sms';
import { testTable } from '../support/table';
import { advanceCall, answerCall, callFromPhone, emulatorCall, hangUpCall } from '../support/twilio';
import { identityOf, listCalls, voiceLine } from '../support/voice';

describe('inbound calls', () => {
  it('ring every member of the inbox; the first to answer takes it, the others hear so; COMPLETED with its duration', async () => {
    const line = await voiceLine({ members: 3 });
    const caller = newPhone();
    const call = await callFromPhone({ from: caller, to: line.channel.identifier });

    const clients = call.legs.map((l) => l.to).sort();
    expect(clients).toEqual(line.agents.map((a) => `client:${identityOf(a)}`).sort());
    expect(call.legs.every((l) => l.status === 'ringing')).toBe(true);
    // The widget's parameters travel with each browser's leg.
    expect(call.legs[0]?.parameters).toMatchObject({ callerNumber: caller, calledNumber: line.channel.identifier });
    for (const socket of line.sockets) {
      const incoming = await socket.next('incoming_call');
      expect(incoming.data).toMatchObject({ callSid: call.sid, from: caller, to: line.channel.identifier });
    }
    const ringing = await listCalls(line.owner);
    expect(ringing.body.data.calls).toMatchObject([{ providerCallId: call.sid, callStatus: 'RINGING', direction: 'INBOUND' }]);

    const [, taker] = line.agents;
    if (!taker) throw new Error('no second agent');
    const answered = await answerCall(call.sid, `client:${identityOf(taker)}`);
    expect(answered.legs.filter((l) => l.status === 'in-progress')).toHaveLength(1);
    for (const socket of line.sockets) {
      expect((await socket.next('call_answered')).data).toEqual({ callSid: call.sid, answeredBy: taker.user.id });
    }
    expect((await listCalls(line.owner)).body.data.calls[0]).toMatchObject({
      callStatus: 'IN_PROGRESS',
      answeredBy: { id: taker.user.id, name: taker.user.name },
    });

    await hangUpCall(call.sid);
    for (const socket of line.sockets) {
      expect((await socket.next('call_ended')).data).toEqual({ callSid: call.sid, callStatus: 'COMPLETED' });
    }
    const ended = await emulatorCall(call.sid);
    const leg = ended.legs.find((l) => l.answeredByParty === `client:${identityOf(taker)}`);
    const [record] = (await listCalls(line.owner)).body.data.calls;
    expect(record).toMatchObject({
      direction: 'INBOUND',
      callStatus: 'COMPLETED',
      durationSeconds: Number(leg?.duration),
      providerCallId: call.sid,
      channel: { id: line.channel.id, phoneNumber: line.channel.identifier },
      contact: { phoneNumber: caller, name: '' },
      answeredBy: { id: taker.user.id, name: taker.user.name },
      recordingUrl: null,
    });
    // The caller is a contact now, with one call.
    const contactId = record?.contact.id;
    expect(contactId).toEqual(expect.any(String));
    await Promise.all(line.sockets.map((s) => s.close()));
  });

  it('nobody answering is a NO_ANSWER, and the caller is offered voicemail', async () => {
    const line = await voiceLine({ members: 2 });
    const call = await callFromPhone({ from: newPhone(), to: line.channel.identifier });
    const ended = await advanceCall(call.sid);
    expect(ended.legs.every((l) => l.status === 'no-answer')).toBe(true);
    expect(ended.said.join(' ')).toContain(DEFAULT_VOICEMAIL_GREETING);
    // Recording: the caller is still on the line.
    expect(ended.status).toBe('in-progress');
    await expect.poll(async () => (await listCalls(line.owner)).body.data.calls[0]?.callStatus).toBe('NO_ANSWER');
    expect((await line.sockets[0]?.next('call_ended'))?.data).toEqual({ callSid: call.sid, callStatus: 'NO_ANSWER' });
    await hangUpCall(call.sid);
    await Promise.all(line.sockets.map((s) => s.close()));
  });

  it('to a number routed to a user rings that user alone', async () => {
    const line = await voiceLine({ members: 2, routing: 'USER' });
    const call = await callFromPhone({ from: newPhone(), to: line.channel.identifier });
    expect(call.legs.map((l) => l.to)).toEqual([`client:${identityOf(line.owner)}`]);
    await line.sockets[0]?.next('incoming_call');
    await line.sockets[1]?.beat();
    expect(line.sockets[1]?.log.some((e) => e.type === 'incoming_call')).toBe(false);
    await answerCall(call.sid, `client:${identityOf(line.owner)}`);
    await hangUpCall(call.sid);
    await expect.poll(async () => (await listCalls(line.owner)).body.data.calls[0]?.callStatus).toBe('COMPLETED');
    await Promise.all(line.sockets.map((s) => s.close()));
  });

  it('to an unassigned number, or an inbox without members, goes to voicemail at once and is recorded NO_ANSWER', async () => {
    const line = await voiceLine({ members: 1, routing: 'UNASSIGNED' });
    const call = await callFromPhone({ from: newPhone(), to: line.channel.identifier });
    expect(call.legs).toEqual([]);
    expect(call.said).toEqual([DEFAULT_VOICEMAIL_GREETING]);
    expect(call.status).toBe('in-progress');
    expect((await listCalls(line.owner)).body.data.calls).toMatchObject([{ callStatus: 'NO_ANSWER', durationSeconds: 0 }]);
    await hangUpCall(call.sid);

    await callRoute(endpoints.removeInboxMember, {
      params: { id: line.inbox.id, userId: line.owner.user.id },
      token: line.owner.tokens.accessToken,
    });
    await callRoute(endpoints.updateChannelRouting, {
      params: { id: line.channel.id },
      token: line.owner.tokens.accessToken,
      body: { routingType: 'INBOX', routingTargetId: line.inbox.id },
    });
    const empty = await callFromPhone({ from: newPhone(), to: line.channel.identifier });
    expect(empty.legs).toEqual([]);
    expect(empty.said).toEqual([DEFAULT_VOICEMAIL_GREETING]);
    await hangUpCall(empty.sid);
    expect((await listCalls(line.owner)).body.data.calls.map((c) => c.callStatus)).toEqual(['NO_ANSWER', 'NO_ANSWER']);
    await Promise.all(line.sockets.map((s) => s.close()));
  });

  it('to an inbox of more than 10 rings its 10 most recently active members, Twilio’s limit of a Dial', async () => {
    const line = await voiceLine({ members: 12 });
    const { client, tableName } = testTable();
    // The first two agents were active longest ago; the others a minute apart after them.
    await Promise.all(
      line.agents.map((agent, i) =>
        client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.user(agent.company.id, agent.user.id),
            UpdateExpression: 'SET lastActiveAt = :at',
            ExpressionAttributeValues: { ':at': new Date(Date.UTC(2026, 10, 1, 9, i)).toISOString() },
          }),
        ),
      ),
    );
    const call = await callFromPhone({ from: newPhone(), to: line.channel.identifier });
    expect(call.legs.map((l) => l.to).sort()).toEqual(
      line.agents
        .slice(2)
        .map((a) => `client:${identityOf(a)}`)
        .sort(),
    );
    await hangUpCall(call.sid);
    await Promise.all(line.sockets.map((s) => s.close()));
  });

  it('a caller who calls twice is one contact with two calls', async () => {
    const line = await voiceLine({ members: 1, routing: 'UNASSIGNED' });
    const caller = newPhone();
    await callFromPhone({ from: caller, to: line.channel.identifier });
    await callFromPhone({ from: caller, to: line.channel.identifier });
    const calls = (await listCalls(line.owner)).body.data.calls;
    expect(calls).toHaveLength(2);
    expect(calls[0]?.contact.id).toBe(calls[1]?.contact.id);
    // The contacts API is tested elsewhere: the contact's counters are read where they are kept.
    const { client, tableName } = testTable();
    const { Item } = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.contact(line.owner.company.id, calls[0]?.contact.id ?? '') }),
    );
    expect(Item).toMatchObject({ phoneNumber: caller, callCount: 2, lastContactAt: calls[0]?.createdAt });
    await Promise.all(line.sockets.map((s) => s.close()));
  });
});
