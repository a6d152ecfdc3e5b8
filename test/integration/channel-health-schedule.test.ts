import { describe, expect, it } from 'vitest';
import { TWILIO_WEBHOOKS } from '../../shared/contract/route';
import type { Channel } from '../../shared/contract/settings';
import { endpoints } from '../support/endpoints';
import { type CompanyWithNumbers, ownGateway } from '../support/own-gateway';
import { tableOfOwn } from '../support/table';
import { twilioPost } from '../support/twilio';

/**
 * The scheduled channel health check (docs/product.md: Channel health): the function EventBridge runs
 * in AWS, run here once through a gateway of this file's own. It visits every company of the table,
 * so this file has a table of its own, as webhook-repoint.test.ts has.
 */

const TABLE_NAME = tableOfOwn('health');

const gateway = ownGateway({
  environment: (origin) => ({ TABLE_NAME, WEBHOOK_BASE_URL: `${origin}${TWILIO_WEBHOOKS}` }),
});

type Company = CompanyWithNumbers;
const companyWithNumbers = () => gateway.companyWithNumbers('health');

/** The company's channels' health as the channel list carries it, by number. */
async function healthByNumber(company: Company): Promise<Record<string, Channel['health']>> {
  const res = await gateway.callRoute(endpoints.listChannels, { token: company.token });
  return Object.fromEntries(res.body.data.channels.map((c) => [c.identifier, c.health]));
}

describe('the scheduled channel health check', () => {
  it('checks every active channel of every company, and a run within half the interval asks Twilio nothing again', async () => {
    const [a, b] = await Promise.all([companyWithNumbers(), companyWithNumbers()]);
    await twilioPost(a.twilio, `/IncomingPhoneNumbers/${a.numbers.smsOnly.sid}.json`, {
      SmsUrl: 'https://elsewhere.example.com/sms',
    });
    for (const company of [a, b]) {
      for (const health of Object.values(await healthByNumber(company))) expect(health.status).toBe('UNCHECKED');
    }

    await gateway.runScheduled('channelHealth', { intervalMinutes: 60 });

    const afterA = await healthByNumber(a);
    expect(afterA[a.numbers.full.phone_number]?.status).toBe('HEALTHY');
    expect(afterA[a.numbers.smsOnly.phone_number]?.status).toBe('DRIFTED');
    const afterB = await healthByNumber(b);
    expect(Object.values(afterB).map((h) => h.status)).toEqual(['HEALTHY', 'HEALTHY']);
    for (const health of [...Object.values(afterA), ...Object.values(afterB)]) expect(health.checkedAt).not.toBeNull();

    // Checked within the last half hour: the next hourly run leaves them be.
    await gateway.runScheduled('channelHealth', { intervalMinutes: 60 });
    expect(await healthByNumber(a)).toEqual(afterA);
    expect(await healthByNumber(b)).toEqual(afterB);
  });
});
