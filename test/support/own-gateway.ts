import { afterAll, beforeAll, vi } from 'vitest';
import { createGateway, type GatewayOptions } from '../../local/gateway';
import { quietLogger } from '../../local/log';
import { freePort } from '../../local/ports';
import type { Endpoint, HttpContract, OptionsArg } from '../../shared/contract/route';
import type { Provider } from '../../shared/contract/settings';
import { api, type CallOptions, callRoute, type RequestOptions, signUp, stack, uniqueEmail } from './api';
import { endpoints } from './endpoints';
import { newTwilioAccount, numbersByKind, type TwilioAccount } from './twilio';

export interface CompanyWithNumbers {
  token: string;
  twilio: TwilioAccount;
  provider: Provider;
  numbers: ReturnType<typeof numbersByKind>;
}

/**
 * A gateway of a test file's own, in the test's process and in front of the shared DynamoDB Local and
 * emulators: for what the shared one cannot show (shorter timeouts, no CloudFront secret, a stopped
 * clock). Started before the enclosing tests and stopped after them; `host` is `127.0.0.1:<port>`.
 * Its functions run in environments of their own, as the stack's do; a test that stops this process's
 * clock runs them here instead (`functions: 'in-process'`), so that they read the clock it stopped.
 */
export function ownGateway(
  options: Omit<GatewayOptions, 'log' | 'environment'> & {
    withOriginSecret?: boolean;
    /** Variables of this gateway's own over the shared stack's, given its origin (`http://127.0.0.1:<port>`). */
    environment?: (origin: string) => Record<string, string>;
  } = {},
) {
  const gateway = {
    host: '',
    /** Runs a scheduled job's function once through this gateway, as its EventBridge rule would. */
    runScheduled: async (..._: Parameters<ReturnType<typeof createGateway>['runScheduled']>): Promise<void> => {
      throw new Error('the gateway has not started');
    },
    /** A request to this gateway, as `api` makes it (test/support/api.ts). */
    request: <T = unknown>(path: string, init: Omit<RequestOptions, 'origin'> = {}) =>
      api<T>(path, { ...init, origin: `http://${gateway.host}` }),
    /** A call of a route by its endpoint to this gateway, as `callRoute` makes it (test/support/api.ts). */
    callRoute: <C extends HttpContract>(endpoint: Endpoint<C>, ...[options]: OptionsArg<CallOptions<C>>) =>
      callRoute(endpoint, ...([{ ...options, origin: `http://${gateway.host}` }] as OptionsArg<CallOptions<C>>)),
    /** Registers a company at `email` through this gateway and opens the mailed link: its owner's access token. */
    signUp: async (email = uniqueEmail('own-gateway')): Promise<string> =>
      (await signUp({ email, companyName: `Company ${email}` }, { origin: `http://${gateway.host}` })).tokens.accessToken,
    /** A company signed up here that connected a fresh Twilio account and imported its voice+SMS and SMS-only numbers. */
    companyWithNumbers: async (label: string): Promise<CompanyWithNumbers> => {
      const token = await gateway.signUp(uniqueEmail(label));
      const twilio = await newTwilioAccount();
      const numbers = numbersByKind(twilio);
      const connected = await gateway.callRoute(endpoints.connectTwilio, {
        token,
        body: { accountSid: twilio.accountSid, authToken: twilio.authToken },
      });
      if (connected.status !== 201) throw new Error(`connect Twilio: ${connected.status} ${connected.body.error?.message}`);
      const { provider } = connected.body.data;
      const imported = await gateway.callRoute(endpoints.importChannels, {
        params: { id: provider.id },
        token,
        body: {
          numbers: [numbers.full, numbers.smsOnly].map((n) => ({
            sid: n.sid,
            phoneNumber: n.phone_number,
            capabilities: { voice: n.capabilities.voice, sms: true },
          })),
        },
      });
      if (imported.body.data?.channels?.length !== 2)
        throw new Error(`import: ${imported.status} ${imported.body.error?.message}`);
      return { token, twilio, provider, numbers };
    },
  };
  let close: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const { env } = stack();
    const port = await freePort();
    const { withOriginSecret = true, environment, ...rest } = options;
    const origin = `http://127.0.0.1:${port}`;
    // In-process, the handlers' modules are this gateway's, made in its environment (its origin above
    // all), not those another file's gateway made in this worker (vitest.config.ts: files share modules).
    if (options.functions === 'in-process') vi.resetModules();
    const started = createGateway({
      log: quietLogger,
      // Pushes to sockets go to this gateway, which holds them.
      environment: { ...(process.env as Record<string, string>), ...env, WS_CALLBACK_URL: origin, ...environment?.(origin) },
      // What CloudFront adds, as the stack's gateway does; without it, a call straight to execute-api.
      originSecret: withOriginSecret ? env.ORIGIN_SECRET : undefined,
      ...rest,
    });
    await started.listen(port);
    gateway.host = `127.0.0.1:${port}`;
    close = started.close;
    gateway.runScheduled = started.runScheduled;
  });
  afterAll(() => close());
  return gateway;
}
