/**
 * Settings of the running function. Locally every value comes from the environment. In AWS, secrets
 * and values only known after deploy are read through the AWS Parameters and Secrets Lambda extension
 * (an HTTP call on localhost, no SDK in the bundle). Secrets are kept here, per container, for
 * SECRET_CACHE_TTL_SECONDS, the answer "no such version" included (the extension caches no error, and
 * a secret never rotated has no AWSPREVIOUS: every request would ask Secrets Manager again); the
 * extension's own secret cache is off (infra/constructs/switchboard-function.ts), so a rotated
 * secret reaches warm functions within that time. Parameters are cached by the extension, as long.
 */

/** How long a container uses a secret it read (and the extension a parameter) before reading it again. */
export const SECRET_CACHE_TTL_SECONDS = 60;

/** The header CloudFront adds to every origin request, carrying ORIGIN_SECRET. */
export const ORIGIN_SECRET_HEADER = 'x-switchboard-origin';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
}

export const tableName = () => env('TABLE_NAME');

export const platformAdminEmails = (): ReadonlySet<string> =>
  new Set(
    (process.env.PLATFORM_ADMIN_EMAILS ?? '')
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  );

/** Whether a value is configured for `name`, directly or by reference. */
export function hasSetting(name: string): boolean {
  return Boolean(process.env[name] || process.env[`${name}_SECRET_ARN`] || process.env[`${name}_PARAMETER`]);
}

/** A value given directly as `NAME`, or by reference as `NAME_SECRET_ARN` / `NAME_PARAMETER`. */
export async function setting(name: string): Promise<string> {
  const direct = process.env[name];
  if (direct) return direct;
  const secretArn = process.env[`${name}_SECRET_ARN`];
  if (secretArn) return (await secretVersion(secretArn, 'AWSCURRENT'))?.value ?? missing(name);
  const parameter = process.env[`${name}_PARAMETER`];
  if (parameter) {
    const body = await fromExtension(`/systemsmanager/parameters/get?name=${encodeURIComponent(parameter)}`);
    return (body as { Parameter: { Value: string } }).Parameter.Value;
  }
  return missing(name);
}

function missing(name: string): never {
  throw new Error(`Missing setting ${name}`);
}

/**
 * A secret during a rotation: `rotatedAt` is when the current value was made current, and `previous()`
 * reads the value before it (undefined where there is none). The previous value is read only when
 * asked for: a caller asks only when the current value does not match, so a secret at rest costs one
 * Secrets Manager call per cache time, not two (docs/operations.md: Cost). Locally `NAME_PREVIOUS` and
 * `NAME_ROTATED_AT` (ISO time) stand in for Secrets Manager's AWSPREVIOUS version and the current
 * version's creation date.
 */
export interface SecretVersions {
  current: string;
  previous: () => Promise<string | undefined>;
  rotatedAt?: Date;
}

export async function secretVersions(name: string): Promise<SecretVersions> {
  const direct = process.env[name];
  if (direct) {
    const rotatedAt = process.env[`${name}_ROTATED_AT`];
    return {
      current: direct,
      previous: async () => process.env[`${name}_PREVIOUS`] || undefined,
      rotatedAt: rotatedAt ? new Date(rotatedAt) : undefined,
    };
  }
  const secretArn = process.env[`${name}_SECRET_ARN`] ?? missing(name);
  const current = await secretVersion(secretArn, 'AWSCURRENT');
  if (!current) return missing(name);
  return {
    current: current.value,
    previous: async () => (await secretVersion(secretArn, 'AWSPREVIOUS'))?.value,
    rotatedAt: current.createdAt,
  };
}

type SecretStage = 'AWSCURRENT' | 'AWSPREVIOUS';
interface SecretVersion {
  value: string;
  createdAt?: Date;
}

/** Per container: each secret version as last read, `undefined` for a version that does not exist. */
const secretCache = new Map<string, { readAt: number; version: Promise<SecretVersion | undefined> }>();

/**
 * A secret version, read through the extension at most once per SECRET_CACHE_TTL_SECONDS. Callers
 * arriving while it is read share that one read; a read that fails is forgotten, so the next caller
 * tries again.
 */
function secretVersion(arn: string, stage: SecretStage): Promise<SecretVersion | undefined> {
  const key = `${stage} ${arn}`;
  const now = Date.now();
  const cached = secretCache.get(key);
  // A clock that went back (or a test's) is not a fresh read either.
  const age = cached ? now - cached.readAt : Number.NaN;
  if (cached && age >= 0 && age < SECRET_CACHE_TTL_SECONDS * 1000) return cached.version;
  const version = readSecretVersion(arn, stage);
  secretCache.set(key, { readAt: now, version });
  version.catch(() => {
    if (secretCache.get(key)?.version === version) secretCache.delete(key);
  });
  return version;
}

async function readSecretVersion(arn: string, stage: SecretStage): Promise<SecretVersion | undefined> {
  const path = `/secretsmanager/get?secretId=${encodeURIComponent(arn)}&versionStage=${stage}`;
  // A secret never rotated has no AWSPREVIOUS: the extension passes Secrets Manager's 400/404 on.
  const body = (await fromExtension(path, stage === 'AWSPREVIOUS')) as
    | { SecretString: string; CreatedDate?: number | string }
    | undefined;
  if (!body) return undefined;
  const created = body.CreatedDate;
  return {
    value: body.SecretString,
    // The extension relays Secrets Manager's JSON: dates are epoch seconds.
    createdAt: created === undefined ? undefined : new Date(typeof created === 'number' ? created * 1000 : created),
  };
}

async function fromExtension(path: string, absentIsUndefined = false): Promise<unknown> {
  const port = process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT ?? '2773';
  const res = await fetch(`http://localhost:${port}${path}`, {
    headers: { 'X-Aws-Parameters-Secrets-Token': env('AWS_SESSION_TOKEN') },
  });
  if (absentIsUndefined && (res.status === 400 || res.status === 404)) return undefined;
  if (!res.ok) throw new Error(`Parameters and Secrets extension answered ${res.status} for ${path.split('?')[0]}`);
  return res.json();
}
