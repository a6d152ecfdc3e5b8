import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Clock, systemClock } from './clock';
import { EmulatorFaults } from './faults';
import {
  type AccountRecord,
  type CallRecord,
  type DemoCredentials,
  type EmulatorState,
  type MessageRecord,
  now,
  type PhoneNumberRecord,
} from './model';
import { additionalAccount, demoAccount, initialState } from './seed';

/**
 * The emulator's state, in memory, and — given a file — saved after every change (write a temporary
 * file, then rename it over the old one, so a crash never leaves half a file).
 */
export class EmulatorStore {
  /** Faults switched on by tests, shared by every product line (REST answers, webhook deliveries); never saved. */
  readonly faults = new EmulatorFaults();
  /**
   * What an outbound MMS's MediaUrls answered, by media SID: kept in memory only, so a state file
   * stays small (after a restart a picture sent before it shows as a placeholder).
   */
  readonly mediaBytes = new Map<string, Buffer>();

  private constructor(
    private state: EmulatorState,
    private readonly demo: DemoCredentials,
    private readonly file: string | undefined,
    /** Every date the emulator writes comes from here. */
    readonly clock: Clock,
  ) {}

  static open(options: { demo: DemoCredentials; file?: string; clock?: Clock }): EmulatorStore {
    const { demo, file, clock = systemClock } = options;
    const state = file && existsSync(file) ? readState(file) : initialState(demo, now(clock));
    const store = new EmulatorStore(state, demo, file, clock);
    store.change((s) => adoptDemo(s, demo, now(clock)));
    return store;
  }

  get accounts(): readonly AccountRecord[] {
    return this.state.accounts;
  }

  account(sid: string): AccountRecord | undefined {
    return this.state.accounts.find((a) => a.sid === sid);
  }

  /** Which account owns a phone number (E.164): where inbound calls and texts will be routed. */
  findNumber(phoneNumber: string): { account: AccountRecord; number: PhoneNumberRecord } | undefined {
    for (const account of this.state.accounts) {
      const number = account.numbers.find((n) => n.phoneNumber === phoneNumber);
      if (number) return { account, number };
    }
    return undefined;
  }

  /** A message of any account, by SID: where the carrier finds the message it is advancing. */
  findMessage(sid: string): { account: AccountRecord; message: MessageRecord } | undefined {
    for (const account of this.state.accounts) {
      const message = account.messages.find((m) => m.sid === sid);
      if (message) return { account, message };
    }
    return undefined;
  }

  /** A call or call leg of any account, by SID. */
  findCall(sid: string): { account: AccountRecord; call: CallRecord } | undefined {
    for (const account of this.state.accounts) {
      const call = account.calls.find((c) => c.sid === sid);
      if (call) return { account, call };
    }
    return undefined;
  }

  /** Every change goes through here, so every change is saved. */
  change<T>(apply: (state: EmulatorState) => T): T {
    const result = apply(this.state);
    this.save();
    return result;
  }

  createAccount(friendlyName?: string): AccountRecord {
    return this.change((state) => {
      const account = additionalAccount(state, now(this.clock), friendlyName);
      state.accounts.push(account);
      return account;
    });
  }

  /** Back to the first start: the demo account alone, as seeded. */
  reset(): void {
    this.state = initialState(this.demo, now(this.clock));
    this.save();
  }

  private save() {
    if (!this.file) return;
    mkdirSync(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(this.state, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, this.file);
  }
}

function readState(file: string): EmulatorState {
  let state: Partial<EmulatorState> | undefined;
  try {
    state = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    state = undefined;
  }
  if (state?.version !== 1 || !Array.isArray(state.accounts) || typeof state.numbersAllocated !== 'number')
    throw new Error(`${file} is not a Twilio emulator state file this version can read. Delete it (or run npm run reset).`);
  // State files written before messaging or calls existed have accounts without them.
  for (const account of state.accounts) {
    account.messages ??= [];
    account.optOuts ??= [];
    account.calls ??= [];
    account.messagingServices ??= [];
    account.recordings ??= [];
    account.conferences ??= [];
    for (const message of account.messages) message.media ??= [];
  }
  return state as EmulatorState;
}

/**
 * The demo account follows EMULATOR_TWILIO_ACCOUNT_SID / EMULATOR_TWILIO_AUTH_TOKEN: a changed token
 * is taken over; a changed SID replaces the old demo account (whose numbers the new one reuses).
 */
function adoptDemo(state: EmulatorState, demo: DemoCredentials, at: string) {
  const current = state.accounts.find((a) => a.sid === demo.accountSid);
  if (current) {
    current.demo = true;
    current.authToken = demo.authToken;
    return;
  }
  state.accounts = state.accounts.filter((a) => !a.demo);
  state.accounts.unshift(demoAccount(demo, at));
}
