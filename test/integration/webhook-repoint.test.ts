import { beforeAll, describe, expect, it } from 'vitest';
import type { RepointResult } from '../../shared/contract/admin';
import { TWILIO_WEBHOOKS } from '../../shared/contract/route';
import { endpoints } from '../support/endpoints';
import { type CompanyWithNumbers, ownGateway } from '../support/own-gateway';
import { inboundParams, newPhone, postWebhook } from '../support/sms';
import { tableOfOwn } from '../support/table';
import { numberOf, setTwilioFaults, textFromPhone, twilioGet, twilioPost } from '../support/twilio';

/**
 * Re-pointing every company's Twilio numbers after the public URL changed
 * (docs/deploy.md: Re-pointing the numbers). The re-point visits every company of the table, so
 * this file has a table of its own, and two gateways in front of it: the platform at its old address,
 * where the companies import their numbers, and at its new one (another WEBHOOK_BASE_URL), where the
 * admin re-points them. The Twilio emulator then calls the new address.
 */

const TABLE_NAME = tableOfOwn('repoint');
const ADMIN = 'repoint-admin@platform.test';
const environment = (origin: string) => ({
  TABLE_NAME,
  PLATFORM_ADMIN_EMAILS: ADMIN,
  WEBHOOK_BASE_URL: `${origin}${TWILIO_WEBHOOKS}`,
});

const oldAddress = ownGateway({ environment });
const newAddress = ownGateway({ environment });
/**
 * A later address again, whose functions get 6 s: less than a pass keeps in hand, so each pass does
 * only its first batch of companies and says where the next one starts.
 */
const shortPassAddress = ownGateway({
  environment,
  timeoutMs: (route) => Math.min((route.timeoutSeconds ?? 10) * 1000, 6_000),
});
const baseOf = (gateway: { host: string }) => `http://${gateway.host}${TWILIO_WEBHOOKS}`;

type Company = CompanyWithNumbers;
const companyWithNumbers = () => oldAddress.companyWithNumbers('repoint');

const addressSeenBy = async (token: string, gateway = newAddress) => gateway.callRoute(endpoints.webhookAddress, { token });

/** Every pass of a re-point, as the admin page sends them, added up; `passes` counts them. */
async function repoint(token: string, gateway = newAddress): Promise<RepointResult & { passes: number }> {
  const total = {
    webhookBase: '',
    repointed: { companies: 0, numbers: 0 },
    failures: [] as RepointResult['failures'],
    passes: 0,
  };
  let cursor: string | undefined;
  do {
    total.passes += 1;
    const res = await gateway.callRoute(endpoints.repointWebhooks, { token, body: cursor === undefined ? {} : { cursor } });
    expect(res.status).toBe(200);
    const pass = res.body.data.repoint;
    total.webhookBase = pass.webhookBase;
    total.repointed.companies += pass.repointed.companies;
    total.repointed.numbers += pass.repointed.numbers;
    total.failures.push(...pass.failures);
    cursor = pass.nextCursor ?? undefined;
  } while (cursor);
  return { ...total, nextCursor: null };
}

/** Where the number sends texts and calls now, in Twilio. */
async function urlsOf(company: Company, kind: 'full' | 'smsOnly') {
  const n = await numberOf(company.twilio, company.numbers[kind].sid);
  return { sms: n.sms_url, voice: n.voice_url, status: n.status_callback };
}

async function outboundApplicationUrl(company: Company) {
  const { applications } = await twilioGet<{ applications: { friendly_name: string; voice_url: string }[] }>(
    company.twilio,
    '/Applications.json',
  );
  return applications.find((a) => a.friendly_name === `Switchboard ${company.provider.id}`)?.voice_url;
}

describe('re-pointing the Twilio numbers after the public URL changed', () => {
  let admin: string;
  let first: Company;
  let second: Company;

  beforeAll(async () => {
    admin = await oldAddress.signUp(ADMIN);
    [first, second] = await Promise.all([companyWithNumbers(), companyWithNumbers()]);
  });

  it('is for platform admins only', async () => {
    const owner = first.token;
    expect((await addressSeenBy(owner)).status).toBe(403);
    const refused = await newAddress.callRoute(endpoints.repointWebhooks, { token: owner, body: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN' });
    expect((await newAddress.callRoute(endpoints.repointWebhooks, { body: {} })).status).toBe(401);
    expect(await urlsOf(first, 'full')).toMatchObject({ sms: expect.stringContaining(baseOf(oldAddress)) });
  });

  it('refuses a cursor it did not give', async () => {
    const res = await newAddress.callRoute(endpoints.repointWebhooks, { token: admin, body: { cursor: 'not-ours' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'BAD_REQUEST', message: 'cursor is invalid' });
  });

  it('moves every company’s numbers and outbound application to the new address, and texts reach the conversation', async () => {
    const oldBase = baseOf(oldAddress);
    const newBase = baseOf(newAddress);
    const oldSmsUrl = (await urlsOf(first, 'full')).sms;
    expect(oldSmsUrl.startsWith(`${oldBase}/`)).toBe(true);

    const before = await addressSeenBy(admin);
    expect(before.status).toBe(200);
    expect(before.body.data.webhookAddress).toEqual({ webhookBase: newBase, pointingElsewhere: { companies: 2, numbers: 4 } });

    const result = await repoint(admin);
    expect(result).toMatchObject({ webhookBase: newBase, repointed: { companies: 2, numbers: 4 }, failures: [] });

    for (const company of [first, second]) {
      const full = await urlsOf(company, 'full');
      expect(full.sms).toMatch(new RegExp(`^${newBase}/[\\w-]+/sms$`));
      expect(full.voice).toMatch(new RegExp(`^${newBase}/[\\w-]+/voice$`));
      expect(full.status).toMatch(new RegExp(`^${newBase}/[\\w-]+/voice/status$`));
      expect((await urlsOf(company, 'smsOnly')).sms).toMatch(new RegExp(`^${newBase}/[\\w-]+/sms$`));
      expect(await outboundApplicationUrl(company)).toMatch(new RegExp(`^${newBase}/[\\w-]+/voice/outbound$`));
    }
    expect((await addressSeenBy(admin)).body.data.webhookAddress.pointingElsewhere).toEqual({ companies: 0, numbers: 0 });

    // Twilio now calls the new address, signed for it, and the text lands in the company's conversation.
    const phone = newPhone();
    const text = await textFromPhone({ from: phone, to: first.numbers.full.phone_number, body: 'Found you at the new address' });
    expect(text.webhook).toMatchObject({ status: 200, url: expect.stringMatching(new RegExp(`^${newBase}/`)) });
    await expect
      .poll(async () => {
        const list = await newAddress.callRoute(endpoints.listConversations, { query: { status: 'OPEN' }, token: first.token });
        return list.body.data.conversations.find((c) => c.contact.phoneNumber === phone)?.lastMessage?.body;
      })
      .toBe('Found you at the new address');

    // A callback of something begun before the move is signed for the old URL: it still verifies.
    const line = { twilio: first.twilio, channel: { identifier: first.numbers.full.phone_number } };
    const late = await postWebhook(oldSmsUrl, inboundParams(line, { from: newPhone(), body: 'Sent before the move' }), {
      authToken: first.twilio.authToken,
    });
    expect(late.status).toBe(200);
  });

  it('changes nothing when run again: numbers already on the address are left alone', async () => {
    const before = await Promise.all([first, second].map((c) => urlsOf(c, 'full')));
    // Any call to either Twilio account would now fail and be reported: none is made.
    await Promise.all([first, second].map((c) => setTwilioFaults(c.twilio.accountSid, { rest: { status: 500 } })));
    try {
      expect(await repoint(admin)).toMatchObject({ repointed: { companies: 0, numbers: 0 }, failures: [] });
    } finally {
      await Promise.all([first, second].map((c) => setTwilioFaults(c.twilio.accountSid, {})));
    }
    expect(await Promise.all([first, second].map((c) => urlsOf(c, 'full')))).toEqual(before);
  });

  it('reports a number whose URLs the customer changed since import, leaves it alone, and moves the rest', async () => {
    const third = await companyWithNumbers();
    const own = 'https://customer.example/sms';
    await twilioPost(third.twilio, `/IncomingPhoneNumbers/${third.numbers.smsOnly.sid}.json`, { SmsUrl: own });
    expect((await addressSeenBy(admin)).body.data.webhookAddress.pointingElsewhere).toEqual({ companies: 1, numbers: 2 });

    const result = await repoint(admin);
    expect(result.repointed).toEqual({ companies: 1, numbers: 1 });
    expect(result.failures).toEqual([
      {
        companyId: expect.any(String),
        companyName: expect.stringContaining('repoint'),
        phoneNumber: third.numbers.smsOnly.phone_number,
        reason: 'Its URLs were changed outside Switchboard, so they were left as they are.',
      },
    ]);
    expect((await urlsOf(third, 'smsOnly')).sms).toBe(own);
    expect((await urlsOf(third, 'full')).sms.startsWith(`${baseOf(newAddress)}/`)).toBe(true);
    // Still counted: the admin sees it needs the company's attention.
    expect((await addressSeenBy(admin)).body.data.webhookAddress.pointingElsewhere).toEqual({ companies: 1, numbers: 1 });
  });

  it('goes on pass after pass when a pass runs short of time, and the passes together move every number', async () => {
    await Promise.all([companyWithNumbers(), companyWithNumbers()]);
    const newest = baseOf(shortPassAddress);
    // Five companies with Twilio (one of them's SMS-only number is the customer's own by now), and the admin's.
    const before = await addressSeenBy(admin, shortPassAddress);
    expect(before.body.data.webhookAddress).toEqual({ webhookBase: newest, pointingElsewhere: { companies: 5, numbers: 10 } });

    const opening = await shortPassAddress.callRoute(endpoints.repointWebhooks, { token: admin, body: {} });
    expect(opening.status).toBe(200);
    expect(opening.body.data.repoint.nextCursor).toEqual(expect.any(String));
    expect(opening.body.data.repoint.repointed.companies).toBeLessThan(5);

    const rest = await repoint(admin, shortPassAddress);
    expect(rest.passes).toBeGreaterThan(1);
    expect(opening.body.data.repoint.repointed.numbers + rest.repointed.numbers).toBe(9);
    expect((await addressSeenBy(admin, shortPassAddress)).body.data.webhookAddress.pointingElsewhere).toEqual({
      companies: 1,
      numbers: 1,
    });
  });
});
