import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { HEALTH_REFRESHES_PER_MEMBER_MINUTE } from '../../shared/constants';
import type { Channel } from '../../shared/contract/settings';
import { type Account, callRoute, stack } from '../support/api';
import { endpoints } from '../support/endpoints';
import { newPhone, type SmsLine, smsLine, socketsClosedAfterEach } from '../support/sms';
import { testTable } from '../support/table';
import { addTeamMember } from '../support/team';
import { numberOf, numbersByKind, setTwilioFaults, type TwilioAccount, textFromPhone, twilioPost } from '../support/twilio';

/**
 * Channel health: a number re-pointed in Twilio's console, or put into a Messaging Service
 * that sends its texts elsewhere, is found on a check with what changed, and Repair puts it right.
 * Everything goes through the API and the Twilio emulator's REST API, as the customer's console would.
 */

const listen = socketsClosedAfterEach();

const healthOf = (account: Account, channelId: string, refresh = false) =>
  callRoute(endpoints.getChannelHealth, {
    params: { id: channelId },
    query: refresh ? { refresh: 'true' } : {},
    token: account.tokens.accessToken,
  });

const repair = (account: Account, channelId: string, body?: { confirmMessagingService?: boolean }) =>
  callRoute(endpoints.repairChannel, { params: { id: channelId }, body, token: account.tokens.accessToken });

/** The line's number in the emulator account. */
function numberSid(line: SmsLine): string {
  const number = line.twilio.numbers.find((n) => n.phone_number === line.channel.identifier);
  if (!number) throw new Error(`no ${line.channel.identifier} in the account`);
  return number.sid;
}

/** Changes a number's settings through Twilio's REST API, as someone in Twilio's console would. */
const repointInTwilio = (line: SmsLine, settings: Record<string, string>) =>
  twilioPost(line.twilio, `/IncomingPhoneNumbers/${numberSid(line)}.json`, settings);

/** Twilio's Messaging Services API (messaging.twilio.com/v1), on the emulator's port. */
async function messaging<T>(account: TwilioAccount, path: string, form: Record<string, string>): Promise<T> {
  const res = await fetch(`${stack().urls.twilio}/v1${path}`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(form),
  });
  if (!res.ok) throw new Error(`POST /v1${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** What the channel's repairs recorded, oldest first. */
async function repairsRecorded(line: SmsLine): Promise<Record<string, unknown>[]> {
  const { client, tableName } = testTable();
  const { Items = [] } = await client.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :repair)',
      ExpressionAttributeValues: { ':pk': `COMPANY#${line.account.company.id}`, ':repair': `CHANNELREPAIR#${line.channel.id}#` },
      ConsistentRead: true,
    }),
  );
  return Items;
}

async function channelInList(account: Account, channelId: string): Promise<Channel | undefined> {
  const res = await callRoute(endpoints.listChannels, { token: account.tokens.accessToken });
  return res.body.data.channels.find((c) => c.id === channelId);
}

describe('a freshly imported channel', () => {
  it('is HEALTHY, checked once when first asked, and the channel list carries the check', async () => {
    const line = await smsLine();
    expect((await channelInList(line.account, line.channel.id))?.health).toEqual({ status: 'UNCHECKED', checkedAt: null });

    const first = await healthOf(line.account, line.channel.id);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const { health } = first.body.data;
    expect(health).toMatchObject({ status: 'HEALTHY', problems: [] });
    expect(Date.parse(health.checkedAt as string)).toBeGreaterThan(Date.now() - 60_000);
    expect(health.delivery).toMatchObject({ sent: 0, delivered: 0, failed: 0, undelivered: 0, errors: [] });

    // Asked again without refresh: the same check, with its time.
    expect((await healthOf(line.account, line.channel.id)).body.data.health.checkedAt).toBe(health.checkedAt);
    expect((await channelInList(line.account, line.channel.id))?.health).toEqual({
      status: 'HEALTHY',
      checkedAt: health.checkedAt,
    });
  });
});

describe('a number re-pointed in Twilio', () => {
  it('SmsUrl: found on refresh with the foreign URL named, pushed to the company, and Repair restores it once', async () => {
    const line = await smsLine();
    await healthOf(line.account, line.channel.id);
    await repointInTwilio(line, { SmsUrl: 'https://studio.example.com/flows/FW123/inbound?token=secret' });

    // Without refresh, the last check is answered: nothing asked Twilio since.
    expect((await healthOf(line.account, line.channel.id)).body.data.health.status).toBe('HEALTHY');

    const socket = await listen(line);
    const refreshed = await healthOf(line.account, line.channel.id, true);
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    const { health } = refreshed.body.data;
    expect(health.status).toBe('DRIFTED');
    expect(health.problems).toEqual([
      {
        field: 'SmsUrl',
        expected: line.smsUrl,
        // Shown without its query, where people put secrets.
        actual: 'https://studio.example.com/flows/FW123/inbound',
        message: expect.stringContaining('https://studio.example.com/flows/FW123/inbound'),
        repairable: true,
      },
    ]);
    expect(JSON.stringify(health)).not.toContain('secret');
    const pushed = await socket.next('channel_health_changed');
    expect(pushed.data).toEqual({ channelId: line.channel.id, health: { status: 'DRIFTED', checkedAt: health.checkedAt } });
    expect((await channelInList(line.account, line.channel.id))?.health.status).toBe('DRIFTED');

    const repaired = await repair(line.account, line.channel.id);
    expect(repaired.status, JSON.stringify(repaired.body)).toBe(200);
    expect(repaired.body.data.health).toMatchObject({ status: 'HEALTHY', problems: [] });
    expect(repaired.body.data.changes).toEqual([
      {
        field: 'SmsUrl',
        from: 'https://studio.example.com/flows/FW123/inbound',
        to: line.smsUrl,
        message: expect.any(String),
      },
    ]);
    expect((await numberOf(line.twilio, numberSid(line))).sms_url).toBe(line.smsUrl);
    expect((await socket.next('channel_health_changed')).data.health.status).toBe('HEALTHY');

    // Idempotent: nothing left to change.
    const again = await repair(line.account, line.channel.id);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ health: { status: 'HEALTHY' }, changes: [] });

    // Recorded once, with who asked; the repair that changed nothing left no record.
    expect(await repairsRecorded(line)).toEqual([
      expect.objectContaining({ userId: line.account.user.id, changes: repaired.body.data.changes }),
    ]);

    // A text reaches Switchboard again.
    const text = await textFromPhone({ from: newPhone(), to: line.channel.identifier, body: 'Back on?' });
    expect(text.webhook).toMatchObject({ url: line.smsUrl, status: 200 });
  });

  it('VoiceUrl and a TwiML application: each named, and Repair puts back the URL and clears the application', async () => {
    const line = await smsLine();
    const ours = await numberOf(line.twilio, numberSid(line));
    const app = await twilioPost<{ sid: string }>(line.twilio, '/Applications.json', {
      FriendlyName: 'Studio IVR',
      VoiceUrl: 'https://ivr.example.org/app',
    });
    await repointInTwilio(line, {
      VoiceUrl: 'https://user:pw@ivr.example.org/answer',
      VoiceApplicationSid: app.sid,
    });

    const { health } = (await healthOf(line.account, line.channel.id, true)).body.data;
    expect(health.status).toBe('DRIFTED');
    expect(health.problems.map((p) => [p.field, p.expected, p.actual])).toEqual([
      ['VoiceUrl', ours.voice_url, 'https://ivr.example.org/answer'],
      ['VoiceApplicationSid', null, app.sid],
    ]);
    expect(JSON.stringify(health)).not.toContain('user:pw');

    const repaired = await repair(line.account, line.channel.id);
    expect(repaired.status, JSON.stringify(repaired.body)).toBe(200);
    expect(repaired.body.data.changes.map((c) => c.field)).toEqual(['VoiceUrl', 'VoiceApplicationSid']);
    expect(repaired.body.data.health.status).toBe('HEALTHY');
    const now = await numberOf(line.twilio, numberSid(line));
    expect(now.voice_url).toBe(ours.voice_url);
    expect(now.voice_application_sid || null).toBeNull();
  });

  it('a repair Twilio refuses keeps the health as it was and says why', async () => {
    const line = await smsLine();
    await repointInTwilio(line, { SmsUrl: 'https://elsewhere.example.com/sms' });
    const drifted = (await healthOf(line.account, line.channel.id, true)).body.data.health;
    expect(drifted.status).toBe('DRIFTED');

    await setTwilioFaults(line.twilio.accountSid, { rest: { status: 500, path: `/IncomingPhoneNumbers/${numberSid(line)}` } });
    try {
      const refused = await repair(line.account, line.channel.id);
      expect(refused.status, JSON.stringify(refused.body)).toBe(502);
      expect(refused.body).toMatchObject({
        success: false,
        error: { code: 'PROVIDER_UNAVAILABLE', message: expect.stringContaining('500') },
      });
    } finally {
      await setTwilioFaults(line.twilio.accountSid, {});
    }
    expect((await healthOf(line.account, line.channel.id)).body.data.health).toEqual(drifted);
    expect((await numberOf(line.twilio, numberSid(line))).sms_url).toBe('https://elsewhere.example.com/sms');
  });

  it('a number Twilio no longer has is NUMBER_GONE, and cannot be repaired', async () => {
    const line = await smsLine();
    await setTwilioFaults(line.twilio.accountSid, { rest: { status: 404, path: `/IncomingPhoneNumbers/${numberSid(line)}` } });
    try {
      const { health } = (await healthOf(line.account, line.channel.id, true)).body.data;
      expect(health).toMatchObject({ status: 'NUMBER_GONE', problems: [{ field: 'PhoneNumber', repairable: false }] });
      const refused = await repair(line.account, line.channel.id);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        success: false,
        error: { message: expect.stringContaining(line.channel.identifier) },
      });
    } finally {
      await setTwilioFaults(line.twilio.accountSid, {});
    }
  });
});

describe('a Twilio that does not answer as it should', () => {
  it('refused credentials and an unreachable Twilio are each named, not repairable, and a repair says why', async () => {
    const line = await smsLine();
    const healthy = (await healthOf(line.account, line.channel.id)).body.data.health;
    expect(healthy.status).toBe('HEALTHY');
    const socket = await listen(line);
    const cases = [
      // A Messaging Service's 404 is Twilio's failure, not the number gone.
      { status: 404, path: '/Services', health: 'PROVIDER_UNREACHABLE', field: 'Provider', repair: 502 },
      { status: 401, path: '/IncomingPhoneNumbers/', health: 'CREDENTIALS_REFUSED', field: 'Credentials', repair: 409 },
      // The number answers; the Messaging Services do not.
      { status: 503, path: '/Services', health: 'PROVIDER_UNREACHABLE', field: 'Provider', repair: 502 },
    ] as const;
    try {
      for (const fault of cases) {
        await setTwilioFaults(line.twilio.accountSid, { rest: { status: fault.status, path: fault.path } });
        const { health } = (await healthOf(line.account, line.channel.id, true)).body.data;
        expect(health, fault.health).toMatchObject({
          status: fault.health,
          problems: [{ field: fault.field, repairable: false }],
        });
        expect((await socket.next('channel_health_changed')).data.health.status).toBe(fault.health);
        const refused = await repair(line.account, line.channel.id);
        expect(refused.status, JSON.stringify(refused.body)).toBe(fault.repair);
        expect((await healthOf(line.account, line.channel.id)).body.data.health).toEqual(health);
      }
    } finally {
      await setTwilioFaults(line.twilio.accountSid, {});
    }
    expect((await healthOf(line.account, line.channel.id, true)).body.data.health.status).toBe('HEALTHY');
  });
});

describe('a Messaging Service that sends inbound texts elsewhere', () => {
  it('is found with its SID and its other numbers, repaired only once the change to the service is confirmed, and then a text reaches Switchboard again', async () => {
    const line = await smsLine();
    const other = numbersByKind(line.twilio).smsOnly;
    const service = await messaging<{ sid: string }>(line.twilio, '/Services', {
      FriendlyName: 'A2P 10DLC campaign',
      InboundRequestUrl: 'https://a2p.example.net/inbound?key=abc',
      UseInboundWebhookOnNumber: 'false',
    });
    await messaging(line.twilio, `/Services/${service.sid}/PhoneNumbers`, { PhoneNumberSid: numberSid(line) });
    await messaging(line.twilio, `/Services/${service.sid}/PhoneNumbers`, { PhoneNumberSid: other.sid });

    const lost = await textFromPhone({ from: newPhone(), to: line.channel.identifier, body: 'Anyone?' });
    expect(lost.webhook?.url).toBe('https://a2p.example.net/inbound?key=abc');

    const { health } = (await healthOf(line.account, line.channel.id, true)).body.data;
    expect(health.status).toBe('DRIFTED');
    expect(health.problems).toEqual([
      {
        field: 'MessagingService',
        expected: expect.any(String),
        actual: service.sid,
        messagingService: {
          sid: service.sid,
          friendlyName: 'A2P 10DLC campaign',
          inboundRequestUrl: 'https://a2p.example.net/inbound',
          otherNumbers: 1,
          otherPhoneNumbers: [other.phone_number],
        },
        message: expect.stringContaining(service.sid),
        repairable: true,
      },
    ]);

    // Not confirmed (no body, or false): refused with a sentence naming the service; nothing changes.
    for (const body of [undefined, { confirmMessagingService: false }]) {
      const refused = await repair(line.account, line.channel.id, body);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({
        code: 'BAD_REQUEST',
        message: `${line.channel.identifier} is in the Messaging Service “A2P 10DLC campaign” (${service.sid}, with 1 other number): repairing it changes how texts reach the service’s other numbers too. Confirm that to repair it.`,
        details: { fields: { confirmMessagingService: 'Confirm the change to the Messaging Service' } },
      });
    }
    expect(await repairsRecorded(line)).toEqual([]);
    const stillLost = await textFromPhone({ from: newPhone(), to: line.channel.identifier, body: 'Still there?' });
    expect(stillLost.webhook?.url).toBe('https://a2p.example.net/inbound?key=abc');

    const repaired = await repair(line.account, line.channel.id, { confirmMessagingService: true });
    expect(repaired.status, JSON.stringify(repaired.body)).toBe(200);
    expect(repaired.body.data.health.status).toBe('HEALTHY');
    expect(repaired.body.data.changes).toEqual([
      expect.objectContaining({ field: 'MessagingService', message: expect.stringContaining('1 other number') }),
    ]);

    const delivered = await textFromPhone({ from: newPhone(), to: line.channel.identifier, body: 'Anyone now?' });
    expect(delivered.webhook).toMatchObject({ url: line.smsUrl, status: 200 });
    expect((await repair(line.account, line.channel.id)).body.data.changes).toEqual([]);
  });
});

describe('who may ask', () => {
  it('an agent reads the health but cannot repair (403); another company gets 404 on both', async () => {
    const line = await smsLine();
    const agent = await addTeamMember(line.account);
    expect((await healthOf(agent, line.channel.id)).status).toBe(200);
    const refused = await repair(agent, line.channel.id);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });

    const stranger = await smsLine();
    for (const res of [
      await healthOf(stranger.account, line.channel.id, true),
      await repair(stranger.account, line.channel.id),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    }
  });

  it('refresh is limited per member, in a window apart from repairs: an agent’s refreshes never block an admin’s repair', async () => {
    const line = await smsLine();
    const [agent, admin] = await Promise.all([addTeamMember(line.account), addTeamMember(line.account, { role: 'ADMIN' })]);
    // A sliding window: the agent's refreshes meet the limit at once, wherever the clock stands (and a
    // window's first seconds make the wait a little over a minute).
    for (let i = 0; i < HEALTH_REFRESHES_PER_MEMBER_MINUTE; i++) {
      expect((await healthOf(agent, line.channel.id, true)).status).toBe(200);
    }
    const refused = await healthOf(agent, line.channel.id, true);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      success: false,
      error: {
        code: 'TOO_MANY_REQUESTS',
        message: expect.stringMatching(
          /^You can ask Twilio about channels 10 times a minute\. Please try again in \d+ (seconds?|minutes?)\.$/,
        ),
        details: { retryAfterSeconds: expect.any(Number) },
      },
    });
    // The stored check is still answered to the agent; the admin repairs and the owner refreshes.
    expect((await healthOf(agent, line.channel.id)).status).toBe(200);
    expect((await repair(admin, line.channel.id)).status).toBe(200);
    expect((await healthOf(line.account, line.channel.id, true)).status).toBe(200);
  });
});
