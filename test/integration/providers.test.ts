import { describe, expect, it } from 'vitest';
import { callRoute, signUp, unchecked } from '../support/api';
import { endpoints } from '../support/endpoints';
import { openSocket } from '../support/realtime';
import { addTeamMember } from '../support/team';
import {
  type EmulatorNumber,
  newTwilioAccount,
  numberOf,
  numbersByKind,
  type TwilioAccount,
  twilioGet,
  twilioPost,
} from '../support/twilio';

type Account = Awaited<ReturnType<typeof signUp>>;

async function connect(account: Account, twilio: Pick<TwilioAccount, 'accountSid' | 'authToken'>) {
  const res = await callRoute(endpoints.connectTwilio, {
    token: account.tokens.accessToken,
    body: { accountSid: twilio.accountSid, authToken: twilio.authToken },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.provider;
}

function importNumbers(
  account: Account,
  providerId: string,
  numbers: { sid: string; phoneNumber: string; voice: boolean; sms: boolean }[],
) {
  return callRoute(endpoints.importChannels, {
    params: { id: providerId },
    token: account.tokens.accessToken,
    body: {
      numbers: numbers.map((n) => ({ sid: n.sid, phoneNumber: n.phoneNumber, capabilities: { voice: n.voice, sms: n.sms } })),
    },
  });
}

const channelsOf = async (account: Account) =>
  (await callRoute(endpoints.listChannels, { token: account.tokens.accessToken })).body.data.channels;

const providersOf = async (account: Account) =>
  (await callRoute(endpoints.listProviders, { token: account.tokens.accessToken })).body.data.providers;

async function legacyNumber(twilio: TwilioAccount): Promise<EmulatorNumber> {
  const list = await twilioGet<{ incoming_phone_numbers: EmulatorNumber[] }>(twilio, '/IncomingPhoneNumbers.json');
  const legacy = list.incoming_phone_numbers.find((n) => n.voice_url && n.sms_url);
  if (!legacy) throw new Error('the emulator account has no number already pointing elsewhere');
  return legacy;
}

describe('connecting Twilio', () => {
  it('refuses wrong credentials with the server message and stores nothing', async () => {
    const account = await signUp();
    const twilio = await newTwilioAccount();
    const wrong = await callRoute(endpoints.connectTwilio, {
      token: account.tokens.accessToken,
      body: { accountSid: twilio.accountSid, authToken: 'f'.repeat(32) },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toEqual({
      code: 'PROVIDER_AUTH_FAILED',
      message: 'Twilio rejected these credentials. Check the Account SID and Auth Token.',
    });
    expect(await providersOf(account)).toEqual([]);
    const keys = await twilioGet<{ keys: unknown[] }>(twilio, '/Keys.json');
    expect(keys.keys).toHaveLength(0);
  });

  it('validates the Account SID and requires both fields', async () => {
    const account = await signUp();
    const res = await callRoute(endpoints.connectTwilio, {
      token: account.tokens.accessToken,
      body: unchecked({ accountSid: 'AB123' }),
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details?.fields).toEqual({
      accountSid: 'Account SID starts with AC followed by 32 letters and digits',
      authToken: 'Auth token is required',
    });
  });

  it('creates an API key and a TwiML application in the customer account, once per company', async () => {
    const account = await signUp();
    const twilio = await newTwilioAccount();
    const provider = await connect(account, twilio);
    expect(provider).toMatchObject({ type: 'TWILIO', accountSid: twilio.accountSid, channelCount: 0 });
    expect(await providersOf(account)).toEqual([provider]);
    expect(JSON.stringify(await providersOf(account))).not.toContain(twilio.authToken);

    const keys = await twilioGet<{ keys: { sid: string }[] }>(twilio, '/Keys.json');
    expect(keys.keys).toHaveLength(1);
    const apps = await twilioGet<{ applications: { voice_url: string; voice_method: string }[] }>(twilio, '/Applications.json');
    expect(apps.applications).toHaveLength(1);
    expect(apps.applications[0]?.voice_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks\/twilio\/[\w-]{20,}\/voice\/outbound$/);
    expect(apps.applications[0]?.voice_method).toBe('POST');

    const again = await callRoute(endpoints.connectTwilio, {
      token: account.tokens.accessToken,
      body: { accountSid: twilio.accountSid, authToken: twilio.authToken },
    });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('A Twilio account is already connected. Disconnect it first.');
  });
});

describe('importing numbers as channels', () => {
  it('lists the account numbers, points only the ticked capabilities at the platform, and imports once', async () => {
    const account = await signUp();
    const twilio = await newTwilioAccount();
    const { full, voiceOnly } = numbersByKind(twilio);
    const provider = await connect(account, twilio);

    const available = await callRoute(endpoints.availableNumbers, {
      params: { id: provider.id },
      token: account.tokens.accessToken,
    });
    expect(available.status).toBe(200);
    expect(available.body.data.numbers.length).toBeGreaterThanOrEqual(4);
    expect(available.body.data.numbers.find((n) => n.sid === full.sid)).toEqual({
      sid: full.sid,
      phoneNumber: full.phone_number,
      friendlyName: full.friendly_name,
      imported: false,
      previouslyImported: false,
      inUseElsewhere: false,
      capabilities: { voice: true, sms: true, mms: true },
      voiceUrl: null,
      smsUrl: null,
      voiceApplication: null,
      smsApplication: null,
    });

    const imported = await importNumbers(account, provider.id, [
      { sid: full.sid, phoneNumber: full.phone_number, voice: false, sms: true },
      // The client asks for SMS on a voice-only number: only what the number has is pointed.
      { sid: voiceOnly.sid, phoneNumber: voiceOnly.phone_number, voice: true, sms: true },
    ]);
    expect(imported.status).toBe(200);
    expect(imported.body.data.importedCount).toBe(2);

    const fullAtTwilio = await numberOf(twilio, full.sid);
    expect(fullAtTwilio.sms_url).toMatch(/\/webhooks\/twilio\/[\w-]+\/sms$/);
    expect(fullAtTwilio.sms_method).toBe('POST');
    expect(fullAtTwilio.voice_url).toBe('');
    const voiceAtTwilio = await numberOf(twilio, voiceOnly.sid);
    expect(voiceAtTwilio.voice_url).toMatch(/\/webhooks\/twilio\/[\w-]+\/voice$/);
    expect(voiceAtTwilio.status_callback).toMatch(/\/webhooks\/twilio\/[\w-]+\/voice\/status$/);
    expect(voiceAtTwilio.sms_url).toBe('');

    // A channel shows what was enabled, not all the number can do: voice was left off the full number.
    const channels = await channelsOf(account);
    expect(channels.map((c) => [c.identifier, c.friendlyName, c.status, c.routingType, c.capabilities])).toEqual(
      [
        [full.phone_number, full.friendly_name, 'ACTIVE', 'UNASSIGNED', { voice: false, sms: true, mms: true }],
        [voiceOnly.phone_number, voiceOnly.friendly_name, 'ACTIVE', 'UNASSIGNED', { voice: true, sms: false, mms: false }],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect((await providersOf(account))[0]?.channelCount).toBe(2);

    const after = await callRoute(endpoints.availableNumbers, { params: { id: provider.id }, token: account.tokens.accessToken });
    expect(
      after.body.data.numbers
        .filter((n) => n.imported)
        .map((n) => n.sid)
        .sort(),
    ).toEqual([full.sid, voiceOnly.sid].sort());

    const twice = await importNumbers(account, provider.id, [
      { sid: full.sid, phoneNumber: full.phone_number, voice: true, sms: true },
    ]);
    expect(twice.status).toBe(200);
    expect(twice.body.data.importedCount).toBe(0);
    expect(await channelsOf(account)).toHaveLength(2);
    expect((await numberOf(twilio, full.sid)).voice_url).toBe('');
  });

  it('says where a number sends calls and texts now; importing takes them over, disconnecting gives them back', async () => {
    const account = await signUp();
    const twilio = await newTwilioAccount();
    const legacy = await legacyNumber(twilio);
    const { full } = numbersByKind(twilio);
    // The customer's own set-up: a TwiML application for calls, and a CRM's SMS URL with a key in it.
    const app = await twilioPost<{ sid: string }>(twilio, '/Applications.json', {
      FriendlyName: 'Old IVR',
      VoiceUrl: 'https://ivr.example.com/answer',
    });
    const crmSms = 'https://bot:s3cret@crm.example.com/hooks/sms?key=abc';
    await twilioPost(twilio, `/IncomingPhoneNumbers/${full.sid}.json`, { VoiceApplicationSid: app.sid, SmsUrl: crmSms });
    const provider = await connect(account, twilio);

    const listed = async () =>
      new Map(
        (
          await callRoute(endpoints.availableNumbers, { params: { id: provider.id }, token: account.tokens.accessToken })
        ).body.data.numbers.map((n) => [n.sid, [n.voiceUrl, n.smsUrl, n.voiceApplication, n.smsApplication]]),
      );
    const before = await listed();
    expect(before.get(legacy.sid)).toEqual([legacy.voice_url, legacy.sms_url, null, null]);
    // Credentials and query never leave the server.
    expect(before.get(full.sid)).toEqual([
      null,
      'https://crm.example.com/hooks/sms',
      { sid: app.sid, friendlyName: 'Old IVR' },
      null,
    ]);

    const imported = await importNumbers(account, provider.id, [
      { sid: full.sid, phoneNumber: full.phone_number, voice: true, sms: true },
      { sid: legacy.sid, phoneNumber: legacy.phone_number, voice: true, sms: true },
    ]);
    expect(imported.body.data.importedCount).toBe(2);
    // The application outranks the number's URLs at Twilio: it is cleared so calls reach the platform.
    const taken = await numberOf(twilio, full.sid);
    expect(taken.voice_application_sid || null).toBeNull();
    expect(taken.voice_url).toMatch(/\/webhooks\/twilio\/[\w-]+\/voice$/);
    expect(taken.sms_url).toMatch(/\/webhooks\/twilio\/[\w-]+\/sms$/);
    expect((await listed()).get(full.sid)).toEqual([null, null, null, null]);

    const disconnected = await callRoute(endpoints.disconnectProvider, {
      params: { id: provider.id },
      token: account.tokens.accessToken,
    });
    expect(disconnected.status).toBe(200);
    const restored = await numberOf(twilio, full.sid);
    expect([restored.voice_application_sid, restored.sms_url]).toEqual([app.sid, crmSms]);
  });

  it('makes one channel of a number imported twice at the same moment', async () => {
    const account = await signUp();
    const twilio = await newTwilioAccount();
    const { full } = numbersByKind(twilio);
    const provider = await connect(account, twilio);
    const both = await Promise.all(
      [1, 2].map(() =>
        importNumbers(account, provider.id, [{ sid: full.sid, phoneNumber: full.phone_number, voice: true, sms: true }]),
      ),
    );
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both.reduce((sum, r) => sum + r.body.data.importedCount, 0)).toBeGreaterThanOrEqual(1);
    const channels = await channelsOf(account);
    expect(channels.map((c) => c.identifier)).toEqual([full.phone_number]);
    expect((await numberOf(twilio, full.sid)).voice_url).toMatch(/\/webhooks\/twilio\/[\w-]+\/voice$/);
  });

  it('refuses a number that is not in the account, an empty selection, and a number with no capability', async () => {
    const account = await signUp();
    const twilio = await newTwilioAccount();
    const provider = await connect(account, twilio);
    const stranger = await importNumbers(account, provider.id, [
      { sid: `PN${'0'.repeat(32)}`, phoneNumber: '+15550009999', voice: true, sms: true },
    ]);
    expect(stranger.status).toBe(400);
    expect(stranger.body.error.message).toBe('The number +15550009999 is not in this Twilio account.');
    const none = await importNumbers(account, provider.id, []);
    expect(none.status).toBe(400);
    expect(none.body.error.message).toBe('Select at least one number');
    const { voiceOnly } = numbersByKind(twilio);
    const nothing = await importNumbers(account, provider.id, [
      // SMS only, on a number without SMS: nothing would be pointed at the platform.
      { sid: voiceOnly.sid, phoneNumber: voiceOnly.phone_number, voice: false, sms: true },
    ]);
    expect(nothing.status).toBe(400);
    expect(nothing.body.error.message).toBe(
      `Choose Voice or SMS for ${voiceOnly.phone_number}: a channel needs at least one of them.`,
    );
    expect(await channelsOf(account)).toEqual([]);
  });

  it('marks another company’s number, and skips it without failing the rest of the batch or touching its URLs', async () => {
    const twilio = await newTwilioAccount();
    const { full, smsOnly } = numbersByKind(twilio);
    const first = await signUp({ companyName: 'First Co' });
    const firstProvider = await connect(first, twilio);
    expect(
      (await importNumbers(first, firstProvider.id, [{ sid: full.sid, phoneNumber: full.phone_number, voice: true, sms: true }]))
        .status,
    ).toBe(200);
    const urls = await numberOf(twilio, full.sid);

    const second = await signUp({ companyName: 'Second Co' });
    const secondProvider = await connect(second, twilio);
    const offered = await callRoute(endpoints.availableNumbers, {
      params: { id: secondProvider.id },
      token: second.tokens.accessToken,
    });
    const marks = new Map(offered.body.data.numbers.map((n) => [n.sid, [n.imported, n.inUseElsewhere]]));
    expect(marks.get(full.sid)).toEqual([false, true]);
    expect(marks.get(smsOnly.sid)).toEqual([false, false]);

    const batch = await importNumbers(second, secondProvider.id, [
      { sid: full.sid, phoneNumber: full.phone_number, voice: true, sms: true },
      { sid: smsOnly.sid, phoneNumber: smsOnly.phone_number, voice: false, sms: true },
    ]);
    expect(batch.status).toBe(200);
    expect(batch.body.data).toMatchObject({
      importedCount: 1,
      skipped: [{ phoneNumber: full.phone_number, reason: 'it is already a channel of another company.' }],
    });
    expect(await numberOf(twilio, full.sid)).toEqual(urls);
    expect((await channelsOf(second)).map((c) => c.identifier)).toEqual([smsOnly.phone_number]);
  });
});

describe('disconnecting', () => {
  it('puts the numbers back as they were, removes key and app, deactivates channels; connecting again re-imports', async () => {
    const account = await signUp();
    const twilio = await newTwilioAccount();
    const legacy = await legacyNumber(twilio);
    const { smsOnly } = numbersByKind(twilio);
    const provider = await connect(account, twilio);
    await importNumbers(account, provider.id, [
      { sid: legacy.sid, phoneNumber: legacy.phone_number, voice: true, sms: true },
      { sid: smsOnly.sid, phoneNumber: smsOnly.phone_number, voice: false, sms: true },
    ]);
    expect((await numberOf(twilio, legacy.sid)).voice_url).toMatch(/\/webhooks\/twilio\//);

    const disconnected = await callRoute(endpoints.disconnectProvider, {
      params: { id: provider.id },
      token: account.tokens.accessToken,
    });
    expect(disconnected.status).toBe(200);
    expect(await providersOf(account)).toEqual([]);

    const restored = await numberOf(twilio, legacy.sid);
    expect([restored.voice_url, restored.voice_method, restored.sms_url, restored.sms_method, restored.status_callback]).toEqual([
      legacy.voice_url,
      legacy.voice_method,
      legacy.sms_url,
      legacy.sms_method,
      legacy.status_callback,
    ]);
    expect((await numberOf(twilio, smsOnly.sid)).sms_url).toBe('');
    expect((await twilioGet<{ keys: unknown[] }>(twilio, '/Keys.json')).keys).toEqual([]);
    expect((await twilioGet<{ applications: unknown[] }>(twilio, '/Applications.json')).applications).toEqual([]);
    const list = await twilioGet<{ incoming_phone_numbers: unknown[] }>(twilio, '/IncomingPhoneNumbers.json');
    expect(list.incoming_phone_numbers.length).toBe(twilio.numbers.length);

    const inactive = await channelsOf(account);
    expect(inactive.map((c) => c.status)).toEqual(['INACTIVE', 'INACTIVE']);

    const again = await connect(account, twilio);
    const numbers = await callRoute(endpoints.availableNumbers, { params: { id: again.id }, token: account.tokens.accessToken });
    expect(numbers.body.data.numbers.every((n) => !n.imported)).toBe(true);
    // The numbers imported before are marked: importing reactivates their channels.
    expect(
      numbers.body.data.numbers
        .filter((n) => n.previouslyImported)
        .map((n) => n.sid)
        .sort(),
    ).toEqual([legacy.sid, smsOnly.sid].sort());
    const reimported = await importNumbers(account, again.id, [
      { sid: legacy.sid, phoneNumber: legacy.phone_number, voice: true, sms: false },
    ]);
    expect(reimported.body.data.importedCount).toBe(1);
    const channels = await channelsOf(account);
    expect(channels).toHaveLength(2);
    const legacyChannel = channels.find((c) => c.identifier === legacy.phone_number);
    expect(legacyChannel).toMatchObject({ status: 'ACTIVE', providerId: again.id });
    expect(legacyChannel?.id).toBe(inactive.find((c) => c.identifier === legacy.phone_number)?.id);
    expect((await numberOf(twilio, legacy.sid)).sms_url).toBe(legacy.sms_url);

    const answered = await callRoute(endpoints.disconnectProvider, {
      params: { id: provider.id },
      token: account.tokens.accessToken,
    });
    expect(answered.status).toBe(404);
  });
});

describe('the company hears of it', () => {
  it('provider_changed reaches every open tab of the company on connect and on disconnect, after the change', async () => {
    const owner = await signUp();
    const agent = await addTeamMember(owner);
    const stranger = await signUp();
    const [ownerTab, agentTab, strangerTab] = await Promise.all([openSocket(owner), openSocket(agent), openSocket(stranger)]);
    const twilio = await newTwilioAccount();

    const before = Date.now();
    const provider = await connect(owner, twilio);
    for (const tab of [ownerTab, agentTab]) {
      const { data } = await tab.next('provider_changed');
      expect(data).toMatchObject({ providerId: provider.id, connected: true });
      expect(Date.parse(data.changedAt)).toBeGreaterThanOrEqual(before - 1000);
    }
    // A token asked for after the event is signed with the new key.
    expect((await callRoute(endpoints.voiceToken, { token: agent.tokens.accessToken })).status).toBe(200);

    await callRoute(endpoints.disconnectProvider, { params: { id: provider.id }, token: owner.tokens.accessToken });
    for (const tab of [ownerTab, agentTab]) {
      expect((await tab.next('provider_changed')).data).toMatchObject({ providerId: provider.id, connected: false });
    }
    await strangerTab.beat();
    expect(strangerTab.log.filter((e) => e.type === 'provider_changed')).toEqual([]);
    await Promise.all([ownerTab, agentTab, strangerTab].map((t) => t.close()));
  });
});
