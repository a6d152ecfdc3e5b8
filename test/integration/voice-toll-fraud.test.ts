import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Call } from '../../shared/contract/calls';
import { type Account, callRoute, signUp, unchecked } from '../support/api';
import { endpoints } from '../support/endpoints';
import { newPhone } from '../support/sms';
import { testTable } from '../support/table';
import { addTeamMember } from '../support/team';
import { callFromClient, hangUpCall } from '../support/twilio';
import { listCalls, voiceLine, voiceToken } from '../support/voice';

/** Toll fraud (docs/security.md: Toll fraud): what an agent's browser (or a stolen session) may dial, how often, and how many at once. */

type Line = Awaited<ReturnType<typeof voiceLine>>;

async function dial(line: Line, to: string, agent: Account = line.owner) {
  return callFromClient({ token: await voiceToken(agent), params: { To: to, From: line.channel.identifier } });
}

async function saveCalling(account: Account, body: unknown) {
  return callRoute(endpoints.updateCallingSettings, { token: account.tokens.accessToken, body: unchecked(body) });
}

async function callOf(account: Account, sid: string): Promise<Call | undefined> {
  return (await listCalls(account)).body.data.calls.find((c) => c.providerCallId === sid);
}

const closeAll = (line: Line) => Promise.all(line.sockets.map((s) => s.close()));

describe('outbound calls to costly destinations', () => {
  // One line for these: a refused call is never live, and the two that ring are hung up before the next.
  let line: Line;
  beforeAll(async () => {
    line = await voiceLine();
  });
  afterAll(() => closeAll(line));

  it.each([
    ['a US premium-rate number', '+19005550100', /premium-rate/],
    ['a UK premium-rate number', '+448719123456', /premium-rate/],
    ['a Swiss shared-cost number', '+41840123456', /shared-cost/],
    ['a UK universal access number', '+445512345678', /universal access/],
    ['a UK personal number', '+447012345678', /personal/],
    ['an Iridium satellite phone', '+881612345678', /satellite/],
    ['an Inmarsat phone', '+870772123456', /satellite/],
    ['an international network number', '+88213400000', /satellite/],
  ])('are refused: %s (%s) is not dialled, the caller hears why, the call is FAILED with the reason', async (_, to, reason) => {
    const call = await dial(line, to);
    expect(call.legs).toEqual([]);
    expect(call.said.join(' ')).toMatch(reason);
    expect(await callOf(line.owner, call.sid)).toMatchObject({
      callStatus: 'FAILED',
      failureReason: expect.stringMatching(reason),
    });
  });

  it('tell the agent’s widget why at once: call_ended carries the failure reason Call History shows', async () => {
    const call = await dial(line, '+19002001234');
    const ended = await line.sockets[0]?.next('call_ended', (e) => e.data.callSid === call.sid);
    expect(ended?.data).toEqual({
      callSid: call.sid,
      callStatus: 'FAILED',
      failureReason: 'Calls to premium-rate numbers are not allowed.',
    });
    expect((await callOf(line.owner, call.sid))?.failureReason).toBe(ended?.data.failureReason);
  });

  it('are refused outside the dialer’s countries; ordinary numbers of its countries ring', async () => {
    const russia = await dial(line, '+74951234567');
    expect(russia.legs).toEqual([]);
    expect(russia.said.join(' ')).toMatch(/Russia/);
    expect(await callOf(line.owner, russia.sid)).toMatchObject({
      callStatus: 'FAILED',
      failureReason: expect.stringMatching(/Russia/),
    });
    const london = await dial(line, '+442079460958');
    expect(london.legs).toMatchObject([{ to: '+442079460958', status: 'ringing' }]);
    await hangUpCall(london.sid);
    const freephone = await dial(line, '+18005550100');
    expect(freephone.legs).toMatchObject([{ to: '+18005550100' }]);
    await hangUpCall(freephone.sid);
  });
});

describe('the company’s allowed countries', () => {
  it('narrowed by the owner, refuse a call elsewhere the same way', async () => {
    const line = await voiceLine();
    const saved = await saveCalling(line.owner, { allowedCountries: ['US', 'CA'], outboundCallsPerMinute: 30 });
    expect(saved.status).toBe(200);
    const london = await dial(line, '+442079460958');
    expect(london.legs).toEqual([]);
    expect(london.said.join(' ')).toMatch(/United Kingdom/);
    expect(await callOf(line.owner, london.sid)).toMatchObject({ callStatus: 'FAILED' });
    const home = await dial(line, newPhone());
    expect(home.legs).toHaveLength(1);
    await hangUpCall(home.sid);
    await closeAll(line);
  });
});

describe('live outbound calls per user', () => {
  it('one at a time: a second while the first rings or talks is refused; after it ends the next rings', async () => {
    const line = await voiceLine();
    const first = await dial(line, newPhone());
    expect(first.legs).toHaveLength(1);
    const second = await dial(line, newPhone());
    expect(second.legs).toEqual([]);
    expect(second.said.join(' ')).toMatch(/already on a call/);
    expect(await callOf(line.owner, second.sid)).toMatchObject({ callStatus: 'FAILED' });
    await hangUpCall(first.sid);
    await expect.poll(async () => (await callOf(line.owner, first.sid))?.callStatus).not.toBe('RINGING');
    const third = await dial(line, newPhone());
    expect(third.legs).toHaveLength(1);
    await hangUpCall(third.sid);
    await closeAll(line);
  });

  it('placed at once, only one rings', async () => {
    const line = await voiceLine();
    const token = await voiceToken(line.owner);
    const calls = await Promise.all(
      Array.from({ length: 4 }, () => callFromClient({ token, params: { To: newPhone(), From: line.channel.identifier } })),
    );
    expect(calls.filter((c) => c.legs.length > 0)).toHaveLength(1);
    for (const call of calls.filter((c) => c.legs.length > 0)) await hangUpCall(call.sid);
    await closeAll(line);
  });

  it('a call whose end was never reported stops counting once it is older than a call can ring', async () => {
    const line = await voiceLine();
    const first = await dial(line, newPhone());
    expect(first.legs).toHaveLength(1);
    // Twilio's status callback never came: the record still says RINGING, ten minutes on.
    expect((await dial(line, newPhone())).legs).toEqual([]);
    await ageLiveCall(line.owner, 10 * 60);
    expect(await callOf(line.owner, first.sid)).toMatchObject({ callStatus: 'RINGING' });
    const next = await dial(line, newPhone());
    expect(next.legs).toHaveLength(1);
    await hangUpCall(next.sid);
    await closeAll(line);
  });
});

describe('the company’s outbound call rate', () => {
  it('refuses calls past the limit, however many are placed at once', async () => {
    const line = await voiceLine({ members: 4 });
    expect((await saveCalling(line.owner, { allowedCountries: ['US'], outboundCallsPerMinute: 2 })).status).toBe(200);
    const calls = await Promise.all(line.agents.map((agent) => dial(line, newPhone(), agent)));
    expect(calls.filter((c) => c.legs.length > 0)).toHaveLength(2);
    const refused = calls.filter((c) => c.legs.length === 0);
    expect(refused).toHaveLength(2);
    for (const call of refused) expect(call.said.join(' ')).toMatch(/allows 2 calls a minute/);
    for (const call of calls.filter((c) => c.legs.length > 0)) await hangUpCall(call.sid);
    await closeAll(line);
  });
});

describe('calling settings', () => {
  // Settings need no number: one company for these, each test saving what it then reads, the defaults read first.
  let owner: Account;
  beforeAll(async () => {
    owner = await signUp();
  });

  it('default to the dialer’s countries and 30 calls a minute, and are the company’s own', async () => {
    const read = async (who: Account) =>
      (await callRoute(endpoints.companySettings, { token: who.tokens.accessToken })).body.data.settings.calling;
    const defaults = await read(owner);
    expect(defaults.outboundCallsPerMinute).toBe(30);
    expect(defaults.allowedCountries).toHaveLength(50);
    expect(defaults.allowedCountries.slice(0, 3)).toEqual(['US', 'CA', 'GB']);
    expect((await saveCalling(owner, { allowedCountries: ['gb', 'US'], outboundCallsPerMinute: 10 })).body.data).toEqual({
      calling: {
        allowedCountries: ['US', 'GB'],
        outboundCallsPerMinute: 10,
        textSegmentsPerHour: 2_000,
        voicemailGreeting: null,
        recordingDisclosure: null,
        recordPrivateLines: false,
      },
    });
    expect(await read(owner)).toEqual({
      allowedCountries: ['US', 'GB'],
      outboundCallsPerMinute: 10,
      textSegmentsPerHour: 2_000,
      voicemailGreeting: null,
      recordingDisclosure: null,
      recordPrivateLines: false,
    });
    const agent = await addTeamMember(owner);
    expect(await read(agent)).toEqual({
      allowedCountries: ['US', 'GB'],
      outboundCallsPerMinute: 10,
      textSegmentsPerHour: 2_000,
      voicemailGreeting: null,
      recordingDisclosure: null,
      recordPrivateLines: false,
    });
  });

  it('refuse bad input with a clear 400 and keep what was stored', async () => {
    await saveCalling(owner, { allowedCountries: ['US'], outboundCallsPerMinute: 5 });
    for (const [body, message] of [
      [{ allowedCountries: [], outboundCallsPerMinute: 5 }, /at least one country/],
      [{ allowedCountries: ['RU'], outboundCallsPerMinute: 5 }, /RU is not one of the dialer’s countries/],
      [{ allowedCountries: ['US'], outboundCallsPerMinute: 0 }, /between 1 and/],
      [{ allowedCountries: ['US'], outboundCallsPerMinute: 2.5 }, /whole number/],
      [{ allowedCountries: 'US', outboundCallsPerMinute: 5 }, /list/],
    ] as const) {
      const res = await saveCalling(owner, body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    const res = await callRoute(endpoints.companySettings, { token: owner.tokens.accessToken });
    expect(res.body.data.settings.calling).toEqual({
      allowedCountries: ['US'],
      outboundCallsPerMinute: 5,
      textSegmentsPerHour: 2_000,
      voicemailGreeting: null,
      recordingDisclosure: null,
      recordPrivateLines: false,
    });
  });

  it('are changed by the owner and admins; only the owner changes the rate; agents cannot', async () => {
    // The rate the admin's saves keep (the tests before changed it).
    expect((await saveCalling(owner, { allowedCountries: ['US'], outboundCallsPerMinute: 30 })).status).toBe(200);
    const [admin, agent] = await Promise.all([addTeamMember(owner, { role: 'ADMIN' }), addTeamMember(owner)]);
    expect((await saveCalling(agent, { allowedCountries: ['US'], outboundCallsPerMinute: 30 })).status).toBe(403);
    expect((await saveCalling(admin, { allowedCountries: ['US', 'MX'], outboundCallsPerMinute: 30 })).status).toBe(200);
    const rate = await saveCalling(admin, { allowedCountries: ['US'], outboundCallsPerMinute: 300 });
    expect(rate.status).toBe(403);
    expect(rate.body.error.message).toMatch(/Only the owner/);
    const after = await callRoute(endpoints.companySettings, { token: admin.tokens.accessToken });
    expect(after.body.data.settings.calling).toEqual({
      allowedCountries: ['US', 'MX'],
      outboundCallsPerMinute: 30,
      textSegmentsPerHour: 2_000,
      voicemailGreeting: null,
      recordingDisclosure: null,
      recordPrivateLines: false,
    });
  });
});

/** Moves the start of the user's live outbound call `seconds` into the past, as if Twilio never reported its end. */
async function ageLiveCall(account: Account, seconds: number): Promise<void> {
  const { client, tableName } = testTable();
  await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: { PK: `COMPANY#${account.company.id}`, SK: `LIVECALL#${account.user.id}` },
      UpdateExpression: 'SET startedAt = :then',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':then': new Date(Date.now() - seconds * 1000).toISOString() },
    }),
  );
}
