/**
 * What a function may use beyond the table, declared per route in the route table. The CDK stack
 * grants exactly these (and sets their environment); the local gateway gives each handler only the
 * environment its capabilities imply, so a handler that uses an undeclared one fails locally too.
 */
export const CAPABILITIES = ['jwt', 'mail', 'appUrl', 'customerSecrets', 'publish', 'twilio'] as const;

export type Capability = (typeof CAPABILITIES)[number];

/**
 * The environment variables each capability brings: `local` as the local stack sets them, `aws` as
 * the CDK stack does. A variable of an undeclared capability is absent from the function.
 */
export const CAPABILITY_ENVIRONMENT: Record<Capability, { local: readonly string[]; aws: readonly string[] }> = {
  /** Issue and verify access tokens: the signing secret. */
  jwt: { local: ['JWT_SECRET', 'JWT_SECRET_PREVIOUS', 'JWT_SECRET_ROTATED_AT'], aws: ['JWT_SECRET_SECRET_ARN'] },
  /** Send mail through SES as MAIL_FROM. */
  mail: { local: ['MAIL_FROM', 'SES_ENDPOINT'], aws: ['MAIL_FROM'] },
  /** The public URL of the app (links in mails, Twilio webhook URLs). */
  appUrl: { local: ['APP_URL', 'WEBHOOK_BASE_URL'], aws: ['APP_URL_PARAMETER'] },
  /** Encrypt and decrypt customers' Twilio credentials (KMS, encryption context = company). */
  customerSecrets: { local: ['LOCAL_SECRETS_KEY'], aws: ['CUSTOMER_SECRETS_KEY_ID'] },
  /** Push to, or close, WebSocket connections through @connections. */
  publish: { local: ['WS_CALLBACK_URL'], aws: ['WS_CALLBACK_URL'] },
  /** Call the customer's Twilio account; such routes may take up to MAX_TIMEOUT_SECONDS. */
  twilio: { local: ['TWILIO_API_BASE_URL'], aws: [] },
};

/** Every variable some capability brings: a function without that capability does not see it. */
export const CAPABILITY_VARIABLES: ReadonlySet<string> = new Set(
  Object.values(CAPABILITY_ENVIRONMENT).flatMap((e) => [...e.local, ...e.aws]),
);

/** Lambda's timeout for a route that declares none. */
export const DEFAULT_TIMEOUT_SECONDS = 10;
/** HTTP API's integration timeout is 30 s: a function must end (and answer) before it. */
export const MAX_TIMEOUT_SECONDS = 29;

/** The environment of a function with these capabilities, from the full local environment. */
export function environmentFor(
  capabilities: readonly Capability[],
  environment: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const allowed = new Set(capabilities.flatMap((c) => CAPABILITY_ENVIRONMENT[c].local));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) {
    if (value === undefined) continue;
    if (CAPABILITY_VARIABLES.has(name) && !allowed.has(name)) continue;
    out[name] = value;
  }
  return out;
}
