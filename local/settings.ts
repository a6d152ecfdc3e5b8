import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const DEMO_ACCOUNT_SID = 'ACdeadbeefdeadbeefdeadbeefdeadbeef';
const DEMO_AUTH_TOKEN = 'feedfacefeedfacefeedfacefeedface';

/** The knobs of the local stack (docs/local-stack.md: Configuration). */
export function localSettings(env: NodeJS.ProcessEnv = process.env) {
  const port = (name: string, fallback: number) => {
    const value = Number(env[name] ?? fallback);
    if (!Number.isInteger(value) || value < 1 || value > 65535)
      throw new Error(`${name} must be a port number, not "${env[name]}"`);
    return value;
  };
  const matching = (name: string, pattern: RegExp, fallback: string, shape: string) => {
    const value = env[name] || fallback;
    if (!pattern.test(value)) throw new Error(`${name} must be ${shape}, not "${value}"`);
    return value;
  };
  const count = (name: string): number | undefined => {
    const value = env[name];
    if (!value) return undefined;
    if (!/^[1-9][0-9]{0,2}$/.test(value)) throw new Error(`${name} must be a whole number from 1 to 999, not "${value}"`);
    return Number(value);
  };
  return {
    apiPort: port('API_PORT', 3000),
    webPort: port('WEB_PORT', 5173),
    sesPort: port('SES_PORT', 8005),
    dynamoPort: port('DYNAMODB_PORT', 8000),
    /** The pictures bucket's S3 stand-in (local/picture-bucket.ts). */
    picturesPort: port('PICTURES_PORT', 4569),
    /** DynamoDB's transaction conflicts, simulated by the proxy on DYNAMODB_PORT (local/dynamodb-proxy.ts). */
    dynamoConflicts: matching('DYNAMODB_CONFLICTS', /^(on|off)$/, 'on', 'on or off') === 'on',
    /**
     * Write units from the items' sizes before and after each write, index writes included: the proxy
     * reads each written item (`npm run cost` turns it on; local/dynamodb-proxy.ts capacityUnits).
     */
    dynamoItemSizes: matching('DYNAMODB_ITEM_SIZES', /^(on|off)$/, 'off', 'on or off') === 'on',
    twilioEmulatorPort: port('TWILIO_EMULATOR_PORT', 3100),
    /** The Twilio emulator's TLS port: the Voice SDK's signalling (wss://localhost:3143/signal) and sounds. */
    twilioSignallingPort: port('TWILIO_SIGNALLING_PORT', 3143),
    /** The Twilio emulator's demo account: obviously fake, valid in form. */
    twilioDemo: {
      accountSid: matching('EMULATOR_TWILIO_ACCOUNT_SID', /^AC[0-9a-f]{32}$/, DEMO_ACCOUNT_SID, 'AC and 32 lowercase hex digits'),
      authToken: matching('EMULATOR_TWILIO_AUTH_TOKEN', /^[0-9a-f]{32}$/, DEMO_AUTH_TOKEN, '32 lowercase hex digits'),
    },
    /** How the functions run: each in environments of its own (as Lambda), or all in-process, for a debugger. */
    functions: matching('LOCAL_FUNCTIONS', /^(environments|in-process)$/, 'environments', 'environments or in-process') as
      | 'environments'
      | 'in-process',
    /**
     * The functions' code: `local` bundles (the deploy's settings with the AWS SDK inside, unminified,
     * shared chunks) or `bundled`, exactly what `cdk deploy` uploads (local/function-bundles.ts).
     */
    handlers: matching('SWITCHBOARD_HANDLERS', /^(local|bundled)$/, 'local', 'local or bundled') as 'local' | 'bundled',
    /**
     * A function's environments at most, and live environments in all: unset, derived from the
     * machine's cores (local/function-environments.ts, environmentLimits; docs/local-stack.md: Sized for this machine).
     */
    environmentsPerFunction: count('LOCAL_FUNCTION_CONCURRENCY'),
    environmentsTotal: count('LOCAL_FUNCTION_ENVIRONMENTS'),
    dataDir: resolve(env.LOCAL_DATA_DIR ?? '.local'),
    platformAdminEmails: env.PLATFORM_ADMIN_EMAILS ?? '',
    mailFrom: env.MAIL_FROM ?? 'Switchboard <no-reply@switchboard.local>',
  };
}

export type LocalSettings = ReturnType<typeof localSettings>;

/**
 * `npm start`'s interval of the scheduled channel health check (docs/product.md: Channel health), in minutes:
 * CHANNEL_HEALTH_INTERVAL_MINUTES, hourly as in AWS by default; 0 turns it off. Test stacks run none.
 */
export function channelHealthIntervalMinutes(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.CHANNEL_HEALTH_INTERVAL_MINUTES || '60';
  if (!/^[0-9]{1,4}$/.test(raw))
    throw new Error(`CHANNEL_HEALTH_INTERVAL_MINUTES must be a whole number of minutes, not "${raw}"`);
  return Number(raw);
}

/**
 * Local secrets are generated once into the data folder (git-ignored), never committed: the JWT key
 * and the AES-256 key standing in for KMS. A key missing from an older file is added.
 */
export interface LocalKeys {
  jwtSecret: string;
  secretsKey: string;
}

export function localKeys(dataDir: string): LocalKeys {
  const file = join(dataDir, 'keys.json');
  const stored: Partial<LocalKeys> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const keys: LocalKeys = {
    jwtSecret: stored.jwtSecret ?? randomBytes(48).toString('base64url'),
    secretsKey: stored.secretsKey ?? randomBytes(32).toString('base64'),
  };
  if (keys.jwtSecret !== stored.jwtSecret || keys.secretsKey !== stored.secretsKey) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  }
  return keys;
}
