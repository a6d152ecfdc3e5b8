import { forEachLimited } from '../lib/concurrency';
import { logError } from '../lib/log';
import { companyPages, twilioOf } from '../settings/company-twilio';
import type { ChannelRecord, ProviderRecord } from '../settings/records';
import { clientFor } from '../settings/twilio-account';
import { type AccountService, accountServices, checkChannel, isCheckable } from './health';

/**
 * The scheduled check of every active channel of every company (docs/product.md: Channel health):
 * run by EventBridge in AWS and by a timer in `npm start`. Twilio accounts are asked side by side, but
 * each account one request at a time with a gap between its channels, so no account is ever burst;
 * its Messaging Services are read once per run. A channel checked within the last half interval
 * is skipped, so a run cut short by its time is taken on by the next one rather than started over.
 */

/** The schedule's interval unless the stack sets another (ChannelHealthIntervalMinutes). */
export const DEFAULT_HEALTH_INTERVAL_MINUTES = 60;
/** Twilio accounts asked side by side. */
const ACCOUNT_CONCURRENCY = 4;
/** Between two channels of one account. */
const CHANNEL_GAP_MS = 250;

export interface HealthSweepOptions {
  intervalMinutes: number;
  /** False once the function's time runs short: the rest waits for the next run. */
  hasTime: () => boolean;
  gapMs?: number;
  now?: Date;
}

export interface HealthSweepOutcome {
  checked: number;
  /** Checked recently enough already. */
  skipped: number;
  /** Accounts whose channels could not all be checked (an error other than Twilio's answer). */
  failedAccounts: number;
  complete: boolean;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function sweepChannelHealth(options: HealthSweepOptions): Promise<HealthSweepOutcome> {
  const outcome: HealthSweepOutcome = { checked: 0, skipped: 0, failedAccounts: 0, complete: true };
  const recent = (options.now ?? new Date()).getTime() - (options.intervalMinutes * 60_000) / 2;
  const gapMs = options.gapMs ?? CHANNEL_GAP_MS;

  for await (const companies of companyPages()) {
    const accounts: { provider: ProviderRecord; channels: ChannelRecord[] }[] = [];
    for (const company of companies) {
      const { providers, channels } = await twilioOf(company.id);
      for (const provider of providers) {
        const due = channels.filter((c) => isCheckable(c) && c.providerId === provider.id);
        const stale = due.filter((c) => !c.health || Date.parse(c.health.checkedAt) < recent);
        outcome.skipped += due.length - stale.length;
        if (stale.length) accounts.push({ provider, channels: stale });
      }
    }
    await forEachLimited(accounts, ACCOUNT_CONCURRENCY, async ({ provider, channels }) => {
      try {
        const client = await clientFor(provider);
        let services: Promise<AccountService[]> | undefined;
        const servicesOnce = () => {
          services ??= accountServices(client);
          return services;
        };
        for (const [index, channel] of channels.entries()) {
          if (!options.hasTime()) {
            outcome.complete = false;
            return;
          }
          if (index > 0) await pause(gapMs);
          await checkChannel(provider, channel, client, servicesOnce);
          outcome.checked += 1;
        }
      } catch (error) {
        outcome.failedAccounts += 1;
        logError({ route: 'channel-health-sweep', companyId: provider.companyId, providerId: provider.id }, error);
      }
    });
    if (!options.hasTime()) {
      outcome.complete = false;
      return outcome;
    }
  }
  return outcome;
}
