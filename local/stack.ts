import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startTwilioEmulator } from '@switchboard/twilio-emulator';
import type { ScheduledJobEntry } from '../functions/routes';
import { TWILIO_WEBHOOKS } from '../shared/contract/route';
import { ensureTable, startDynamoDb } from './dynamodb';
import { startDynamoDbProxy } from './dynamodb-proxy';
import { createGateway, LOCAL_SQS_PATH } from './gateway';
import { type Logger, logger } from './log';
import { pictureBucketCors, startPictureBucket } from './picture-bucket';
import { assertPortFree, freePort } from './ports';
import { startSes } from './ses';
import { type LocalSettings, localKeys } from './settings';
import { startWeb } from './web';

export const LOCAL_TABLE_NAME = 'switchboard';

export interface StackOptions extends LocalSettings {
  /** Keep DynamoDB data and the Twilio emulator's state on disk under dataDir (npm start) or in memory (tests). */
  persist: boolean;
  web: boolean;
  /** Serve the production build of the web app (as CloudFront does) instead of the dev server. */
  webBuild?: boolean;
  /** The Twilio emulator's time per message status step (its own default, a few hundred ms, without one). */
  twilioMessageStepMs?: number;
  /** A lower scrypt cost for new password hashes (test stacks only; see functions/auth/passwords.ts). */
  passwordScryptN?: number;
  /** A voice token lifetime shorter than 15 minutes, for tests that watch the softphone renew it. */
  voiceTokenTtlSeconds?: number;
  /** The Twilio emulator's signalling heartbeat interval, shorter than its 5 s for tests that run a page's clock ahead. */
  signallingHeartbeatMs?: number;
  /** A fraction below 1 that shortens the sign-in and session throttle windows, for tests that wait one out. */
  throttleWindowScale?: number;
  /**
   * Minutes between two scheduled channel health checks (`npm start`: CHANNEL_HEALTH_INTERVAL_MINUTES);
   * without it none runs, so test stacks stay deterministic.
   */
  channelHealthIntervalMinutes?: number;
  /**
   * Minutes between two runs of the sweep that finishes member removals nobody finished (`npm start`:
   * as in AWS); without it none runs, and tests run the sweep themselves.
   */
  memberRemovalSweepMinutes?: number;
  /** How long a busy function's invocation waits for a warm environment before a new one starts (local/function-environments.ts). */
  warmWaitMs?: number;
  /**
   * Start one environment of every function in the background once the stack answers, as provisioned
   * concurrency would (`npm start` only: test stacks start only the functions their files use).
   */
  warmFunctions?: boolean;
  log?: (name: string) => Logger;
}

export type LocalStack = Awaited<ReturnType<typeof startLocalStack>>;

/**
 * Starts every local stand-in, then the gateway last, so that /api/v1/health answers only once
 * DynamoDB Local, the SES emulator, the Twilio emulator and the web server are all ready. Stops
 * whatever had started if a part fails.
 */
export async function startLocalStack(options: StackOptions) {
  const log = options.log ?? defaultLogs;
  if (options.handlers === 'bundled' && options.functions === 'in-process')
    throw new Error(
      'SWITCHBOARD_HANDLERS=bundled runs the deployed bundles in environments of their own: it needs LOCAL_FUNCTIONS=environments',
    );
  const ports: [number, string][] = [
    [options.apiPort, 'API_PORT'],
    [options.sesPort, 'SES_PORT'],
    [options.dynamoPort, 'DYNAMODB_PORT'],
    [options.picturesPort, 'PICTURES_PORT'],
    [options.twilioEmulatorPort, 'TWILIO_EMULATOR_PORT'],
    [options.twilioSignallingPort, 'TWILIO_SIGNALLING_PORT'],
  ];
  if (options.web) ports.push([options.webPort, 'WEB_PORT']);
  for (const [port, knob] of ports) await assertPortFree(port, knob);

  const stops: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => {});
    stops.length = 0;
  };
  const webUrl = `http://localhost:${options.webPort}`;
  // The functions' key (handlerEnv below): the stand-in checks every signature made with it.
  const awsCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  try {
    const [dynamo, ses, twilio, pictures] = await Promise.all([
      // DynamoDB Local on an internal port, behind the conflict proxy on DYNAMODB_PORT, which is what
      // the handlers talk to (local/dynamodb-proxy.ts).
      freePort()
        .then((port) =>
          startDynamoDb({
            port,
            dataDir: options.persist ? join(options.dataDir, 'dynamodb') : undefined,
            log: log('dynamodb'),
          }),
        )
        .then(async (d) => {
          stops.push(d.stop);
          const proxy = await startDynamoDbProxy({
            port: options.dynamoPort,
            upstream: d.endpoint,
            client: d.client,
            conflicts: options.dynamoConflicts,
            log: log('dynamodb'),
          });
          stops.push(proxy.stop);
          return { ...d, endpoint: proxy.endpoint };
        }),
      startSes({ port: options.sesPort, log: log('ses') }).then((s) => {
        stops.push(s.stop);
        return s;
      }),
      startTwilioEmulator({
        port: options.twilioEmulatorPort,
        stateFile: options.persist ? join(options.dataDir, 'twilio-emulator.json') : undefined,
        demo: options.twilioDemo,
        messageStepMs: options.twilioMessageStepMs,
        // The certificate stays in the data folder (tests: their temporary one), so it is trusted once.
        signalling: {
          port: options.twilioSignallingPort,
          certificateDir: join(options.dataDir, 'tls'),
          heartbeatMs: options.signallingHeartbeatMs,
        },
        log: log('twilio'),
      }).then((t) => {
        stops.push(t.stop);
        return t;
      }),
      // In this process: a small HTTP server, no child (docs/local-stack.md: The pictures bucket).
      startPictureBucket({
        port: options.picturesPort,
        directory: join(options.dataDir, 'pictures'),
        // Each function signs with an access key of its own (local/table-guard.ts: functionAccessKeyId), all with this secret.
        secretOf: (id) =>
          id === awsCredentials.accessKeyId || id.startsWith('LOCALFN') ? awsCredentials.secretAccessKey : undefined,
        cors: pictureBucketCors(webUrl),
        log: log('pictures'),
      }).then((p) => {
        stops.push(p.stop);
        return p;
      }),
    ]);
    const table = await ensureTable(dynamo.client, LOCAL_TABLE_NAME);
    const added = table.addedIndexes.length ? `; added index ${table.addedIndexes.join(', ')}` : '';
    log('dynamodb').info(`table ${LOCAL_TABLE_NAME} ${table.created ? 'created' : 'found'}${added}`);

    const signalling = twilio.signalling;
    if (!signalling) throw new Error('The Twilio emulator started without its signalling');
    const apiUrl = `http://127.0.0.1:${options.apiPort}`;
    const keys = localKeys(options.dataDir);
    const handlerEnv = {
      TABLE_NAME: LOCAL_TABLE_NAME,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: awsCredentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: awsCredentials.secretAccessKey,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      SES_ENDPOINT: ses.url,
      PICTURE_BUCKET: pictures.bucket,
      S3_ENDPOINT: pictures.endpoint,
      TWILIO_API_BASE_URL: twilio.url,
      // The emulator serves messaging.twilio.com's /v1 (Messaging Services) on the same port.
      TWILIO_MESSAGING_BASE_URL: twilio.url,
      MAIL_FROM: options.mailFrom,
      APP_URL: webUrl,
      JWT_SECRET: keys.jwtSecret,
      LOCAL_SECRETS_KEY: keys.secretsKey,
      PLATFORM_ADMIN_EMAILS: options.platformAdminEmails,
      WS_CALLBACK_URL: apiUrl,
      // The gateway stands in for SQS too (local/gateway/): the company-deletion queue.
      SQS_ENDPOINT: `${apiUrl}${LOCAL_SQS_PATH}`,
      COMPANY_DELETION_QUEUE_URL: `${apiUrl}${LOCAL_SQS_PATH}/local/companyDeletion`,
      // Twilio calls the gateway directly; in AWS the base is derived from APP_URL (CloudFront).
      WEBHOOK_BASE_URL: `${apiUrl}${TWILIO_WEBHOOKS}`,
      // What CloudFront adds to origin requests; the gateway adds it as CloudFront would.
      ORIGIN_SECRET: randomBytes(24).toString('base64url'),
      // Node 20 here, Node 22 in Lambda: the SDK's upgrade notice would be every cold start's first lines.
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...(options.passwordScryptN ? { PASSWORD_SCRYPT_N: String(options.passwordScryptN) } : {}),
      ...(options.voiceTokenTtlSeconds ? { LOCAL_VOICE_TOKEN_TTL_SECONDS: String(options.voiceTokenTtlSeconds) } : {}),
      ...(options.throttleWindowScale ? { LOCAL_THROTTLE_WINDOW_SCALE: String(options.throttleWindowScale) } : {}),
    };

    // The built web app's folder, when the stack serves a build (the browser tests play a release with it).
    let webBuildDir: string | undefined;
    if (options.web) {
      const web = await startWeb({
        port: options.webPort,
        apiPort: options.apiPort,
        signallingHost: signalling.host,
        picturesOrigin: new URL(pictures.endpoint).origin,
        log: log('web'),
        built: options.webBuild,
      });
      stops.push(web.stop);
      webBuildDir = web.builtDir;
    }
    // Each function runs in execution environments of its own, from its bundle, with the environment its
    // function would have in AWS (local/function-environments.ts); LOCAL_FUNCTIONS=in-process runs them
    // all in this process instead, for a debugger.
    const gateway = createGateway({
      log: log('gateway'),
      functionLog: log('functions'),
      functions: options.functions,
      environmentsPerFunction: options.environmentsPerFunction,
      environmentsTotal: options.environmentsTotal,
      warmWaitMs: options.warmWaitMs,
      bundling: options.handlers === 'bundled' ? 'deployed' : 'local',
      environment: { ...definedVariables(process.env), ...handlerEnv },
      originSecret: handlerEnv.ORIGIN_SECRET,
    });
    await gateway.listen(options.apiPort);
    stops.push(gateway.close);
    if (options.warmFunctions && options.functions !== 'in-process') {
      // In the background: the stack answers now; a function asked for meanwhile waits for its warm-up.
      const startedAt = performance.now();
      void gateway
        .warmFunctions()
        .then((warmed) =>
          log('gateway').info(
            `${warmed} functions warm in ${((performance.now() - startedAt) / 1000).toFixed(1)} s (one environment each, as provisioned concurrency)`,
          ),
        )
        .catch((error: unknown) => log('gateway').error(`warming the functions failed: ${(error as Error).message}`));
    }
    // As the EventBridge rules in AWS: the same functions, with the interval as their input; one run at a time each.
    const every = (schedule: ScheduledJobEntry['schedule'], minutes: number | undefined) => {
      if (!minutes) return;
      let running: Promise<void> | undefined;
      const timer = setInterval(() => {
        running ??= gateway.runScheduled(schedule, { intervalMinutes: minutes }).finally(() => {
          running = undefined;
        });
      }, minutes * 60_000);
      timer.unref();
      stops.push(async () => {
        clearInterval(timer);
        await running;
      });
    };
    every('channelHealth', options.channelHealthIntervalMinutes);
    every('memberRemovals', options.memberRemovalSweepMinutes);

    return {
      urls: {
        web: webUrl,
        api: apiUrl,
        websocket: `ws://127.0.0.1:${options.apiPort}/ws`,
        mail: ses.url,
        dynamodb: dynamo.endpoint,
        twilio: twilio.url,
        /** The pictures bucket's S3 endpoint (the bucket is a path below it). */
        pictures: `${pictures.endpoint}/${pictures.bucket}`,
        phone: `${twilio.url}/phone`,
        /** The Voice SDK's signalling (wss://localhost:{port}/signal); its host is the web app's VITE_TWILIO_SIGNALLING_HOST. */
        signalling: signalling.url,
        /** The page that, opened once and accepted, makes a browser trust the emulator's certificate. */
        signallingTrust: `https://${signalling.host}/`,
      },
      /** The self-signed certificate of the signalling port. */
      signallingCertFile: signalling.certFile,
      webBuildDir,
      env: handlerEnv,
      /** The processes of the stack besides this one (whose worker threads run the functions). */
      processes: { dynamodb: dynamo.pid, ses: ses.pid },
      /** Each function's environments, cold starts and invocations since start (local/function-environments.ts). */
      functionStats: gateway.functionStats,
      /** Runs a scheduled function now, as its EventBridge rule would (npm run cost). */
      runScheduled: gateway.runScheduled,
      /** The Twilio emulator's demo account, to paste into Connect Twilio. */
      twilioDemo: options.twilioDemo,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function definedVariables(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

const colours = {
  dynamodb: 'blue',
  ses: 'magenta',
  gateway: 'cyan',
  functions: 'gray',
  web: 'green',
  twilio: 'yellow',
  pictures: 'magenta',
} as const;
function defaultLogs(name: string): Logger {
  return logger(name, colours[name as keyof typeof colours] ?? 'gray');
}
