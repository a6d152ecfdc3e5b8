/**
 * Settings of the running function. Locally every value comes from the environment. In AWS, secrets
 * and values only known after deploy are read once per cold start through the AWS Parameters and
 * Secrets Lambda extension (an HTTP call on localhost, no SDK in the bundle).
 */

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

const cache = new Map<string, Promise<string>>();

/** A value given directly as `NAME`, or by reference as `NAME_SECRET_ARN` / `NAME_PARAMETER`. */
export function setting(name: string): Promise<string> {
  let value = cache.get(name);
  if (!value) {
    value = resolveSetting(name);
    cache.set(name, value);
    value.catch(() => cache.delete(name));
  }
  return value;
}

async function resolveSetting(name: string): Promise<string> {
  const direct = process.env[name];
  if (direct) return direct;
  const secretArn = process.env[`${name}_SECRET_ARN`];
  if (secretArn) {
    const body = await fromExtension(`/secretsmanager/get?secretId=${encodeURIComponent(secretArn)}`);
    return (body as { SecretString: string }).SecretString;
  }
  const parameter = process.env[`${name}_PARAMETER`];
  if (parameter) {
    const body = await fromExtension(`/systemsmanager/parameters/get?name=${encodeURIComponent(parameter)}`);
    return (body as { Parameter: { Value: string } }).Parameter.Value;
  }
  throw new Error(`Missing setting ${name}`);
}

async function fromExtension(path: string): Promise<unknown> {
  const port = process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT ?? '2773';
  const res = await fetch(`http://localhost:${port}${path}`, {
    headers: { 'X-Aws-Parameters-Secrets-Token': env('AWS_SESSION_TOKEN') },
  });
  if (!res.ok) throw new Error(`Parameters and Secrets extension answered ${res.status} for ${path.split('?')[0]}`);
  return res.json();
}
