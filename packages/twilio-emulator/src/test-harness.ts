import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { quietLogger } from './log';
import { startTwilioEmulator, type TwilioEmulator, type TwilioEmulatorOptions } from './server';
import { type Receiver, startReceiver } from './test-receiver';

/** A free loopback port, for tests that start an emulator of their own. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The emulator's demo account, with the credentials its tests sign with. */
export const demo = { accountSid: `AC${'d'.repeat(32)}`, authToken: 'e'.repeat(32) };

export interface CallOptions {
  json?: unknown;
  form?: Record<string, string>;
  /** Basic auth with the account's SID and token, as Twilio's clients send it. */
  auth?: { accountSid: string; authToken: string };
}

/**
 * For the emulator's tests: starts an emulator and a test receiver for the file, and after each test
 * resets the emulator and forgets what the receiver heard and was told. `call` requests the emulator
 * and answers the status and the parsed JSON body. `extra` adds options (read when the emulator starts).
 */
export function useTwilioEmulator(extra: () => Partial<TwilioEmulatorOptions> = () => ({})) {
  let emulator: TwilioEmulator | undefined;
  let receiver: Receiver | undefined;
  const started = <T>(part: T | undefined): T => {
    if (!part) throw new Error('the emulator starts in beforeAll');
    return part;
  };

  async function call<T = Record<string, unknown>>(method: string, path: string, options: CallOptions = {}) {
    const headers: Record<string, string> = {};
    if (options.auth)
      headers.authorization = `Basic ${Buffer.from(`${options.auth.accountSid}:${options.auth.authToken}`).toString('base64')}`;
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    if (options.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(`${started(emulator).url}${path}`, {
      method,
      headers,
      body:
        options.json !== undefined
          ? JSON.stringify(options.json)
          : options.form
            ? new URLSearchParams(options.form).toString()
            : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T & { error?: string } };
  }

  /** A new API key of the account; its secret is answered only now, as Twilio does. */
  async function apiKey(account: { accountSid: string; authToken: string }) {
    const res = await call<{ sid: string; secret: string }>('POST', `/2010-04-01/Accounts/${account.accountSid}/Keys.json`, {
      auth: account,
      form: { FriendlyName: 'voice' },
    });
    return res.body;
  }

  /** A new TwiML application of the account (VoiceUrl, StatusCallback…); answers its SID. */
  async function application(account: { accountSid: string; authToken: string }, form: Record<string, string>) {
    const res = await call<{ sid: string }>('POST', `/2010-04-01/Accounts/${account.accountSid}/Applications.json`, {
      auth: account,
      form,
    });
    return res.body.sid;
  }

  beforeAll(async () => {
    // Fast steps keep the tests short; they stay apart, so callbacks keep their order.
    emulator = await startTwilioEmulator({ port: await freePort(), demo, messageStepMs: 10, log: quietLogger, ...extra() });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await emulator?.stop();
    await receiver?.stop();
  });
  afterEach(async () => {
    await call('POST', '/_emulator/reset');
    receiver?.reset();
  });

  return {
    get emulator() {
      return started(emulator);
    },
    get receiver() {
      return started(receiver);
    },
    call,
    apiKey,
    application,
  };
}
