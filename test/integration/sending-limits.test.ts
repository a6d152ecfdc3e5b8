import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  MEDIA_REQUESTS_PER_MEMBER_MINUTE,
  RECORDING_REQUESTS_PER_MEMBER_MINUTE,
  TEXT_SEGMENTS_PER_MEMBER_MINUTE,
} from '../../shared/constants';
import { MAX_MESSAGE_LENGTH, smsSegments } from '../../shared/sms-segments';
import { type Account, type ApiResponse, callRoute } from '../support/api';
import { endpoints } from '../support/endpoints';
import { conversationWith, newPhone, readConversation, sendText, smsLine, socketsClosedAfterEach } from '../support/sms';
import { addTeamMember } from '../support/team';
import { shareInbox } from '../support/team-inbox';
import { setTwilioFaults } from '../support/twilio';

/**
 * What a member may make the company pay for (docs/product.md: Sending limits), through the local
 * gateway. The windows slide, so a burst that straddles a window's edge still meets the limit: the
 * counts below hold at any moment of the stack's clock.
 */
const listen = socketsClosedAfterEach();

/**
 * The costliest text: 1,600 characters outside GSM-7, 24 segments. Few sends reach a limit, each past
 * it by a wide margin, so a window's edge passing during a slow run cannot let one through.
 */
const LONGEST = 'ж'.repeat(MAX_MESSAGE_LENGTH);
const LONGEST_SEGMENTS = smsSegments(LONGEST).segments;
/** How many of the longest texts fit a member's minute. */
const FITTING = Math.floor(TEXT_SEGMENTS_PER_MEMBER_MINUTE / LONGEST_SEGMENTS);

const saveCalling = (account: Account, body: Record<string, unknown>) =>
  callRoute(endpoints.updateCallingSettings, {
    token: account.tokens.accessToken,
    body: { allowedCountries: ['US'], outboundCallsPerMinute: 30, ...body },
  });
const retry = (account: Account, conversationId: string, messageId: string) =>
  callRoute(endpoints.retryMessage, { params: { id: conversationId, messageId }, token: account.tokens.accessToken });

function expectRefused(res: ApiResponse, sentence: RegExp) {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({
    success: false,
    error: { code: 'TOO_MANY_REQUESTS', message: expect.stringMatching(sentence) },
  });
  const retryAfter = res.body.error.details?.retryAfterSeconds as number;
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(res.headers.get('retry-after')).toBe(String(retryAfter));
  return retryAfter;
}

/** Sends `n` of the longest texts one after another, each answered 201. */
async function sendLongest(account: Account, conversationId: string, n: number) {
  for (let i = 0; i < n; i++) expect((await sendText(account, conversationId, LONGEST)).status).toBe(201);
}

// The file's first test starts the send, retry and start functions: on a busy machine, past a minute.
describe('sending limits', { timeout: 120_000 }, () => {
  it('refuse an AGENT past their segments a minute, saying which limit and when, while another member still sends', async () => {
    const line = await smsLine();
    const agent = await addTeamMember(line.account);
    await shareInbox(line.account, line.channel, [line.account, agent]);
    const conversationId = await conversationWith(line, await listen(line), newPhone());
    await sendLongest(agent, conversationId, FITTING);

    const refused = await sendText(agent, conversationId, LONGEST);
    const retryAfter = expectRefused(
      refused,
      /^You can send up to 60 text segments a minute\. Please try again in \d+ (second|minute)s?\.$/,
    );
    expect(retryAfter).toBeLessThanOrEqual(120);
    // Nothing of the refused text was stored or sent.
    const thread = (await readConversation(line.account, conversationId)).body.data.conversation;
    expect(thread.messages.filter((m) => m.body === LONGEST)).toHaveLength(FITTING);

    expect((await sendText(line.account, conversationId, LONGEST)).status).toBe(201);
    // A short text still fits what is left of the agent's minute: it counts segments, not texts.
    expect((await sendText(agent, conversationId, 'One more thing')).status).toBe(201);
  });

  it('count a retry against the member who retries', async () => {
    const line = await smsLine();
    const agent = await addTeamMember(line.account);
    await shareInbox(line.account, line.channel, [line.account, agent]);
    const conversationId = await conversationWith(line, await listen(line), newPhone());
    await setTwilioFaults(line.twilio.accountSid, { rest: { status: 503, times: 1 } });
    const failed = (await sendText(agent, conversationId, LONGEST)).body.data.message;
    expect(failed).toMatchObject({ status: 'FAILED', smsMessage: { providerMessageId: null } });
    await sendLongest(agent, conversationId, FITTING - 1);

    expectRefused(await retry(agent, conversationId, failed.id), /^You can send up to 60 text segments a minute\./);
    // Still failed, with Retry: the owner sends it again, on their own limits.
    const thread = (await readConversation(agent, conversationId)).body.data.conversation;
    expect(thread.messages.find((m) => m.id === failed.id)?.status).toBe('FAILED');
    const retried = await retry(line.account, conversationId, failed.id);
    expect(retried.status).toBe(200);
    expect(retried.body.data.message).toMatchObject({
      id: failed.id,
      smsMessage: { providerMessageId: expect.stringMatching(/^SM/) },
    });
  });

  it('hold the whole company to its segments an hour, which only the owner changes, in Settings → Calling', async () => {
    const line = await smsLine();
    const [agent, admin] = await Promise.all([addTeamMember(line.account), addTeamMember(line.account, { role: 'ADMIN' })]);
    await shareInbox(line.account, line.channel, [line.account, agent]);
    const conversationId = await conversationWith(line, await listen(line), newPhone());
    const lowered = await saveCalling(line.account, { textSegmentsPerHour: 50 });
    expect(lowered.body.data).toMatchObject({ calling: { textSegmentsPerHour: 50 } });

    await sendLongest(line.account, conversationId, 2);
    const companySentence =
      /^Your company can send up to 50 text segments an hour \(the owner can change this in Settings → Calling\)\. Please try again in \d+ (second|minute)s?\.$/;
    expectRefused(await sendText(agent, conversationId, LONGEST), companySentence);
    // Starting a conversation counts too, and a refused one leaves no conversation behind.
    const phone = newPhone();
    const start = await callRoute(endpoints.startConversation, {
      token: line.account.tokens.accessToken,
      body: { to: phone, channelId: line.channel.id, body: LONGEST },
    });
    expectRefused(start, companySentence);
    const contacts = await callRoute(endpoints.listContacts, {
      token: line.account.tokens.accessToken,
      query: { search: phone },
    });
    expect(contacts.body.data.contacts).toEqual([]);

    // An admin cannot raise it; the owner can, and the agent's text goes at once.
    const byAdmin = await saveCalling(admin, { textSegmentsPerHour: 1_000 });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.error.message).toBe('Only the owner can change the company’s text segments an hour.');
    expect((await saveCalling(line.account, { textSegmentsPerHour: 1_000 })).status).toBe(200);
    expect((await sendText(agent, conversationId, LONGEST)).status).toBe(201);
    const settings = await callRoute(endpoints.companySettings, { token: agent.tokens.accessToken });
    expect(settings.body.data.settings.calling.textSegmentsPerHour).toBe(1_000);
    // An admin's save without the field, or with it unchanged, keeps it.
    expect((await saveCalling(admin, {})).status).toBe(200);
    expect((await saveCalling(admin, { textSegmentsPerHour: 1_000 })).status).toBe(200);

    for (const [value, message] of [
      [49, 'Text segments an hour must be between 50 and 100,000'],
      [100_001, 'Text segments an hour must be between 50 and 100,000'],
      [60.5, 'Text segments an hour must be a whole number'],
      ['lots', 'Text segments an hour must be a number'],
    ] as const) {
      const res = await saveCalling(line.account, { textSegmentsPerHour: value });
      expect(res.status, String(value)).toBe(400);
      expect(res.body.error.details?.fields).toMatchObject({ textSegmentsPerHour: message });
    }
  });
});

describe('per-member limits on what asks Twilio', () => {
  /** Asks until the member is refused; every answer before is the route's own (404 for ids of nothing). */
  async function askUntilRefused(ask: () => Promise<ApiResponse>, limit: number) {
    const answers: number[] = [];
    const batch = 10;
    while (answers.length < limit) {
      answers.push(...(await Promise.all(Array.from({ length: batch }, ask))).map((r) => r.status));
    }
    expect(answers.slice(0, limit).every((status) => status === 404)).toBe(true);
    // A window's edge passed meanwhile lets some more through, as the earlier window slides out;
    // never a second limit's worth within the minute.
    for (let i = 0; i < limit; i++) {
      const res = await ask();
      if (res.status === 429) return res;
      expect(res.status).toBe(404);
    }
    throw new Error(`still not refused after ${2 * limit} requests`);
  }

  it('refuse a member’s pictures and files past the minute’s, while another member still opens them', async () => {
    const line = await smsLine();
    const agent = await addTeamMember(line.account);
    const media = (account: Account) => () =>
      callRoute(endpoints.messageMedia, {
        params: { id: randomUUID(), messageId: randomUUID(), index: '0' },
        token: account.tokens.accessToken,
      });
    const refused = await askUntilRefused(media(agent), MEDIA_REQUESTS_PER_MEMBER_MINUTE);
    expectRefused(refused, /^You can open up to 120 pictures and files a minute\. Please try again in \d+ (second|minute)s?\.$/);
    expect((await media(line.account)()).status).toBe(404);
  });

  it('refuse a member’s voicemail recordings past the minute’s, while another member still plays them', async () => {
    const line = await smsLine();
    const agent = await addTeamMember(line.account);
    const recording = (account: Account) => () =>
      callRoute(endpoints.voicemailAudio, { params: { id: randomUUID() }, token: account.tokens.accessToken });
    const refused = await askUntilRefused(recording(agent), RECORDING_REQUESTS_PER_MEMBER_MINUTE);
    expectRefused(refused, /^You can open up to 60 voicemail recordings a minute\./);
    expect((await recording(line.account)()).status).toBe(404);
  });

  it('list a provider’s numbers for owners and admins only, as importing', async () => {
    const line = await smsLine();
    const [agent, admin] = await Promise.all([addTeamMember(line.account), addTeamMember(line.account, { role: 'ADMIN' })]);
    const list = (account: Account) =>
      callRoute(endpoints.availableNumbers, { params: { id: line.provider.id }, token: account.tokens.accessToken });
    const refused = await list(agent);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual({ code: 'FORBIDDEN', message: 'Only the owner and admins can do this.' });
    expect((await list(admin)).status).toBe(200);
  });
});
