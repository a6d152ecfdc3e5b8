import { STATUS_CODES } from 'node:http';
import { TwilioError } from './twilio-errors';

/**
 * The outside world failing, for tests: Twilio's REST API answering errors or answering late, and
 * webhooks lost on the way. Set through `POST /_emulator/faults`, for every account or for one
 * (`accountSid`), so tests side by side do not disturb each other. Not saved: a restart clears them.
 */
export interface RestFault {
  /** Answer this HTTP status (400–599) with Twilio's error body instead of acting on the request. */
  status?: number;
  /** Hold the request this long before acting on it. */
  delayMs?: number;
  /** How many more requests it applies to; every request until changed when absent. */
  times?: number;
  /** Only requests whose path contains this (e.g. `/Applications.json`); every request when absent. */
  path?: string;
}

export interface FaultSet {
  rest?: RestFault;
  /** The next `drop` webhook deliveries are lost: no request is made, as if the network lost it. */
  webhooks?: { drop: number };
}

export interface FaultsView {
  /** For every account. */
  all: FaultSet;
  /** For one account each; an account's own faults come before those for every account. */
  accounts: Record<string, FaultSet>;
}

export const MAX_FAULT_DELAY_MS = 120_000;

/** What a REST request meets: an error to answer, and/or a delay first. */
export interface RestEffect {
  delayMs: number;
  error?: TwilioError;
}

export class EmulatorFaults {
  private all: FaultSet = {};
  private accounts: Record<string, FaultSet> = {};

  view(): FaultsView {
    return structuredClone({ all: this.all, accounts: this.accounts });
  }

  /** Replaces the faults of one scope with these (an empty set clears it). */
  set(faults: FaultSet, accountSid?: string) {
    if (accountSid === undefined) this.all = faults;
    else if (faults.rest || faults.webhooks) this.accounts[accountSid] = faults;
    else delete this.accounts[accountSid];
  }

  reset() {
    this.all = {};
    this.accounts = {};
  }

  /** Takes one use of the REST fault that applies to this account's request, if any. */
  takeRest(accountSid: string | undefined, path: string): RestEffect {
    const scope = this.scopeWith('rest', accountSid);
    const fault = scope?.rest;
    if (!scope || !fault || (fault.path !== undefined && !path.includes(fault.path))) return { delayMs: 0 };
    if (fault.times !== undefined && --fault.times <= 0) this.spent(scope, 'rest');
    return {
      delayMs: fault.delayMs ?? 0,
      error: fault.status === undefined ? undefined : restError(fault.status),
    };
  }

  /** True when this webhook delivery is to be lost (and counts it). */
  takeWebhookDrop(accountSid: string): boolean {
    const scope = this.scopeWith('webhooks', accountSid);
    const fault = scope?.webhooks;
    if (!scope || !fault) return false;
    if (--fault.drop <= 0) this.spent(scope, 'webhooks');
    return true;
  }

  private spent(scope: FaultSet, kind: keyof FaultSet) {
    delete scope[kind];
    for (const [sid, faults] of Object.entries(this.accounts)) if (!faults.rest && !faults.webhooks) delete this.accounts[sid];
  }

  private scopeWith(kind: keyof FaultSet, accountSid: string | undefined): FaultSet | undefined {
    const own = accountSid ? this.accounts[accountSid] : undefined;
    if (own?.[kind]) return own;
    return this.all[kind] ? this.all : undefined;
  }
}

/** Twilio's error body for a status: its 20xxx codes follow the HTTP status (20429, 20500, 20503…). */
function restError(status: number): TwilioError {
  return new TwilioError(status, 20_000 + status, STATUS_CODES[status] ?? `HTTP ${status}`);
}

/** Reads a `POST /_emulator/faults` body; a string is what is wrong with it. */
export function readFaults(input: Record<string, unknown>): { faults: FaultSet; accountSid?: string } | string {
  const { rest, webhooks, accountSid } = input;
  const unknown = Object.keys(input).filter((k) => !['rest', 'webhooks', 'accountSid'].includes(k));
  if (unknown.length) return `Unknown field ${unknown[0]}. ${USAGE}`;
  if (accountSid !== undefined && typeof accountSid !== 'string') return 'accountSid must be a string.';
  const faults: FaultSet = {};
  if (rest !== undefined && rest !== null) {
    if (typeof rest !== 'object' || Array.isArray(rest)) return USAGE;
    const { status, delayMs, times, path } = rest as Record<string, unknown>;
    if (status === undefined && delayMs === undefined) return USAGE;
    if (status !== undefined && !(isWhole(status) && status >= 400 && status <= 599))
      return 'rest.status must be an HTTP error status from 400 to 599.';
    if (delayMs !== undefined && !(isWhole(delayMs) && delayMs >= 0 && delayMs <= MAX_FAULT_DELAY_MS))
      return `rest.delayMs must be a whole number of milliseconds from 0 to ${MAX_FAULT_DELAY_MS}.`;
    if (times !== undefined && !(isWhole(times) && times >= 1)) return 'rest.times must be a whole number from 1.';
    if (path !== undefined && (typeof path !== 'string' || path === '')) return 'rest.path must be a non-empty string.';
    faults.rest = {
      ...(status === undefined ? {} : { status }),
      ...(delayMs === undefined ? {} : { delayMs }),
      ...(times === undefined ? {} : { times }),
      ...(path === undefined ? {} : { path: path as string }),
    };
  }
  if (webhooks !== undefined && webhooks !== null) {
    const drop = (webhooks as Record<string, unknown>).drop;
    if (!(isWhole(drop) && drop >= 1)) return 'webhooks.drop must be a whole number from 1.';
    faults.webhooks = { drop };
  }
  return { faults, ...(accountSid === undefined ? {} : { accountSid }) };
}

const USAGE =
  'Send {"rest": {"status": 503, "times": 2}} or {"rest": {"delayMs": 12000}} and/or {"webhooks": {"drop": 1}}, optionally with "accountSid"; {} clears.';

const isWhole = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);
