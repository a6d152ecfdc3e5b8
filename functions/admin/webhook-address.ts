import type { WebhookAddress } from '../../shared/contract/admin';
import { forEachLimited } from '../lib/concurrency';
import { companyPages, twilioOf } from '../settings/company-twilio';
import { currentWebhookBase } from '../settings/webhook-base';
import { pointingElsewhere } from '../settings/webhook-urls';

/**
 * The platform admin's view of where Twilio reaches the platform (docs/deploy.md:
 * Re-pointing the numbers): the current webhook base and what is recorded on another one. Reads only the
 * table: what each number was pointed at is recorded on it (functions/settings/repoint.ts).
 */

/** Companies counted side by side for the overview: two Queries each. */
const COUNT_CONCURRENCY = 10;

export async function webhookAddress(): Promise<WebhookAddress> {
  const base = await currentWebhookBase();
  const elsewhere = { companies: 0, numbers: 0 };
  for await (const companies of companyPages()) {
    await forEachLimited(companies, COUNT_CONCURRENCY, async (company) => {
      const { providers, channels } = await twilioOf(company.id);
      let pending = false;
      for (const provider of providers) {
        const state = pointingElsewhere(provider, channels, base);
        elsewhere.numbers += state.numbers;
        pending ||= state.provider || state.numbers > 0;
      }
      if (pending) elsewhere.companies += 1;
    });
  }
  return { webhookBase: base, pointingElsewhere: elsewhere };
}
