import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The knobs of the local stack (README: Configuration). */
export function localSettings(env: NodeJS.ProcessEnv = process.env) {
  const port = (name: string, fallback: number) => {
    const value = Number(env[name] ?? fallback);
    if (!Number.isInteger(value) || value < 1 || value > 65535)
      throw new Error(`${name} must be a port number, not "${env[name]}"`);
    return value;
  };
  return {
    apiPort: port('API_PORT', 3000),
    webPort: port('WEB_PORT', 5173),
    sesPort: port('SES_PORT', 8005),
    dynamoPort: port('DYNAMODB_PORT', 8000),
    twilioEmulatorPort: port('TWILIO_EMULATOR_PORT', 3100),
    dataDir: resolve(env.LOCAL_DATA_DIR ?? '.local'),
    platformAdminEmails: env.PLATFORM_ADMIN_EMAILS ?? '',
    mailFrom: env.MAIL_FROM ?? 'Switchboard <no-reply@switchboard.local>',
  };
}

export type LocalSettings = ReturnType<typeof localSettings>;

/** Local secrets are generated once into the data folder (git-ignored), never committed. */
export function localKeys(dataDir: string): { jwtSecret: string } {
  const file = join(dataDir, 'keys.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  mkdirSync(dataDir, { recursive: true });
  const keys = { jwtSecret: randomBytes(48).toString('base64url') };
  writeFileSync(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  return keys;
}
