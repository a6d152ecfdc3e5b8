import type { RepointResult } from '../../shared/contract/admin';
import { badRequest } from '../lib/app-error';
import { timeLeftMs } from '../lib/deadline';
import { companyPages, type ListedCompany, twilioOf } from '../settings/company-twilio';
import { repointProvider } from '../settings/repoint';
import { currentWebhookBase } from '../settings/webhook-base';

/**
 * The platform admin's re-point: every company's Twilio numbers moved to the current webhook base
 * after the public URL changed (docs/deploy.md: Re-pointing the
 * numbers), each provider by functions/settings/repoint.ts.
 *
 * It runs in the request, in passes: a pass visits companies oldest first until the function's time
 * runs short and answers where the next one starts; the admin page sends the passes one after another
 * and shows them as they come. Each number's progress is recorded as it happens, so a pass cut short
 * or a page closed loses nothing, and the next re-point skips what is done. An action an operator
 * takes once per domain change needs no queue and worker of its own.
 */

/** Time kept for the batch in hand: Twilio calls (8 s each at most, lib/deadline) and the answer. */
const PASS_MARGIN_MS = 12_000;
/** Companies re-pointed side by side; each updates up to 5 numbers at once. */
const COMPANY_CONCURRENCY = 4;

const hasTime = () => timeLeftMs() > PASS_MARGIN_MS;

/** One pass of the re-point, from `cursor` (an earlier pass's `nextCursor`) or the oldest company. */
export async function repointWebhooks(cursor: string | undefined): Promise<RepointResult> {
  const base = await currentWebhookBase();
  const result: RepointResult = { webhookBase: base, repointed: { companies: 0, numbers: 0 }, failures: [], nextCursor: null };
  let started = false;
  for await (const companies of companyPages(cursor === undefined ? undefined : readCursor(cursor))) {
    for (let i = 0; i < companies.length; i += COMPANY_CONCURRENCY) {
      const batch = companies.slice(i, i + COMPANY_CONCURRENCY);
      // A pass always does its first batch, so passes get through however little time each has.
      if (started && !hasTime()) {
        result.nextCursor = toCursor(batch[0] as ListedCompany);
        return result;
      }
      started = true;
      const outcomes = await Promise.all(batch.map((company) => repointCompany(company, base)));
      outcomes.forEach((outcome, index) => {
        const company = batch[index] as ListedCompany;
        result.repointed.numbers += outcome.numbers;
        if (outcome.moved) result.repointed.companies += 1;
        result.failures.push(...outcome.failures.map((f) => ({ companyId: company.id, companyName: company.name, ...f })));
      });
      // The earliest company cut short is where the next pass starts; what it finished is skipped then.
      const unfinished = outcomes.findIndex((o) => !o.complete);
      if (unfinished >= 0) {
        result.nextCursor = toCursor(batch[unfinished] as ListedCompany);
        return result;
      }
    }
  }
  return result;
}

async function repointCompany(company: ListedCompany, base: string) {
  const { providers, channels } = await twilioOf(company.id);
  const total = { numbers: 0, moved: false, failures: [] as { phoneNumber: string | null; reason: string }[], complete: true };
  for (const provider of providers) {
    const outcome = await repointProvider(provider, channels, base, hasTime);
    total.numbers += outcome.numbers;
    total.moved ||= outcome.providerMoved || outcome.numbers > 0;
    total.failures.push(...outcome.failures);
    total.complete &&= outcome.complete;
  }
  return total;
}

/** A cursor is a listed company's sort key (`createdAt#id`); anything else is refused. */
const toCursor = (company: ListedCompany) => Buffer.from(company.GSI1SK).toString('base64url');

function readCursor(cursor: string): string {
  const sortKey = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^\d{4}-\d{2}-\d{2}T[\d:.]+Z#[\w-]+$/.test(sortKey)) throw badRequest('cursor is invalid');
  return sortKey;
}
