/**
 * What a function may use beyond the table, declared per route in the route table. The CDK stack
 * grants exactly these (and sets their environment); the local gateway gives each handler only the
 * environment its capabilities imply, so a handler that uses an undeclared one fails locally too.
 */
export const CAPABILITIES = [
  'jwt',
  'mail',
  'appUrl',
  'customerSecrets',
  'publish',
  'twilio',
  'companyDeletion',
  'pictures',
] as const;

export type Capability = (typeof CAPABILITIES)[number];

/**
 * The environment variables each capability brings: `local` as the local stack sets them, `aws` as
 * the CDK stack does. A variable of an undeclared capability is absent from the function.
 */
export const CAPABILITY_ENVIRONMENT: Record<Capability, { local: readonly string[]; aws: readonly string[] }> = {
  /** Issue and verify access tokens: the signing secret. */
  jwt: { local: ['JWT_SECRET', 'JWT_SECRET_PREVIOUS', 'JWT_SECRET_ROTATED_AT'], aws: ['JWT_SECRET_SECRET_ARN'] },
  /** Send mail through SES as MAIL_FROM, with the configuration set that records bounces and complaints. */
  mail: { local: ['MAIL_FROM', 'SES_ENDPOINT'], aws: ['MAIL_FROM', 'MAIL_CONFIGURATION_SET'] },
  /** The public URL of the app (links in mails, Twilio webhook URLs). */
  appUrl: { local: ['APP_URL', 'WEBHOOK_BASE_URL'], aws: ['APP_URL_PARAMETER'] },
  /** Encrypt and decrypt customers' Twilio credentials (KMS, encryption context = company). */
  customerSecrets: { local: ['LOCAL_SECRETS_KEY'], aws: ['CUSTOMER_SECRETS_KEY_ID'] },
  /** Push to, or close, WebSocket connections through @connections. */
  publish: { local: ['WS_CALLBACK_URL'], aws: ['WS_CALLBACK_URL'] },
  /** Call the customer's Twilio account (REST API and Messaging Services); such routes may take up to MAX_TIMEOUT_SECONDS. */
  twilio: { local: ['TWILIO_API_BASE_URL', 'TWILIO_MESSAGING_BASE_URL'], aws: [] },
  /** Hand a company's deletion to the background: send to the company-deletion queue (SQS). */
  companyDeletion: { local: ['COMPANY_DELETION_QUEUE_URL', 'SQS_ENDPOINT'], aws: ['COMPANY_DELETION_QUEUE_URL'] },
  /** The pictures bucket (functions/lib/picture-bucket.ts), with the operations the entry declares (`pictures`). */
  pictures: { local: ['PICTURE_BUCKET', 'S3_ENDPOINT'], aws: ['PICTURE_BUCKET'] },
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

/**
 * What a function may do with the table, declared per route (`table`) in the route table: `none`
 * (never touches it), `read`, or `write` (read and write). The CDK stack grants exactly these
 * DynamoDB actions on the table and its named indexes; the local gateway refuses any other operation
 * the same way (AccessDeniedException), so a route that writes under `read` fails locally too.
 * A transaction needs the actions of its parts (TransactWriteItems: PutItem, UpdateItem, DeleteItem,
 * ConditionCheckItem; TransactGetItems: GetItem): DynamoDB has no separate IAM action for them.
 */
export const TABLE_ACCESS = ['none', 'read', 'write', 'sweep'] as const;

export type TableAccess = (typeof TABLE_ACCESS)[number];

const TABLE_READ_ACTIONS = ['GetItem', 'BatchGetItem', 'Query'] as const;

const TABLE_WRITE_ACTIONS = [
  ...TABLE_READ_ACTIONS,
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'ConditionCheckItem',
];

/**
 * DynamoDB actions (without the `dynamodb:` prefix) per table access. No Scan: every list is a Query
 * (docs/architecture.md §4). The one exception is `sweep`, the company-deletion worker's: it pages through the whole
 * table once per deleted company to find every item that names it, whatever its key (docs/product.md:
 * Deleting a company), in the background where no user waits on it.
 */
export const TABLE_ACTIONS: Record<TableAccess, readonly string[]> = {
  none: [],
  read: TABLE_READ_ACTIONS,
  write: TABLE_WRITE_ACTIONS,
  sweep: [...TABLE_WRITE_ACTIONS, 'Scan'],
};

/**
 * The operations on the customer-secrets KMS key a route with the `customerSecrets` capability
 * declares (`kms`): `decrypt` to use a stored Twilio credential, `encrypt` to store a new one.
 */
export const KMS_OPERATIONS = ['encrypt', 'decrypt'] as const;

export type KmsOperation = (typeof KMS_OPERATIONS)[number];

/** The KMS action each operation is granted as. */
export const KMS_ACTIONS: Record<KmsOperation, string> = { encrypt: 'kms:Encrypt', decrypt: 'kms:Decrypt' };

/**
 * What a route with the `pictures` capability does in the pictures bucket (docs/security.md: Pictures),
 * declared per entry (`pictures`) and granted per key prefix (functions/lib/picture-bucket.ts):
 * - `upload`: sign a browser's PUT of a new picture (`unsent/`);
 * - `send`: read an upload and keep it as sent (read `unsent/`, write `sent/`);
 * - `read`: sign a read of a sent picture (`sent/`), for Twilio or a reader;
 * - `delete`: list and delete a company's pictures (both prefixes).
 */
export const PICTURE_OPERATIONS = ['upload', 'send', 'read', 'delete'] as const;

export type PictureOperation = (typeof PICTURE_OPERATIONS)[number];
