import { DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TABLE_ACCESS, TABLE_ACTIONS, type TableAccess } from '../functions/lib/capabilities';
import { currentFunction } from './function-scope';

/**
 * The local stand-in for the table grants of each function's role (infra/constructs/switchboard-function.ts):
 * DynamoDB Local allows everything, so the gateway puts this check in front of the functions' table
 * client. An operation the route's `table` declaration does not allow fails before it is sent, with
 * the AccessDeniedException IAM answers in AWS — so a route that writes under `table: 'read'` fails
 * its tests locally instead of only after a deploy.
 */
const GUARD = 'localTableGrants';

/** Adds the check to a client (again: replaces it). */
export function guardTableGrants(client: DynamoDBDocumentClient): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      const fn = currentFunction();
      if (fn) {
        const request = args.request as { headers?: Record<string, string>; body?: unknown };
        const allowed = TABLE_ACTIONS[fn.table];
        const denied = actionsOf(request).find((action) => !allowed.includes(action));
        if (denied) throw accessDenied(fn.name, fn.table, denied);
      }
      return next(args);
    },
    // Once the request is serialised (its X-Amz-Target names the operation) and before it is retried or signed.
    { step: 'build', name: GUARD, override: true },
  );
}

let functionsTable: Promise<void> | undefined;
/**
 * Guards the functions' own table client (functions/lib/db.ts), the one every handler shares in the
 * gateway's process. Call it inside a function's scope: the client reads its endpoint when created.
 */
export function guardFunctionsTable(): Promise<void> {
  functionsTable ??= import('../functions/lib/db').then(({ db }) => guardTableGrants(db));
  return functionsTable;
}

/**
 * The IAM actions a DynamoDB request needs: its operation's, or for a transaction those of its parts.
 * The body is the serialised request, or the request already parsed (the DynamoDB proxy parses it once).
 */
export function actionsOf(request: { headers?: Record<string, string>; body?: unknown }): string[] {
  const operation = request.headers?.['x-amz-target']?.split('.').pop() ?? '';
  if (operation === 'TransactGetItems') return ['GetItem'];
  if (operation === 'TransactWriteItems') {
    const { TransactItems = [] } = (isParsed(request.body) ? request.body : JSON.parse(bodyText(request.body))) as {
      TransactItems?: Record<string, unknown>[];
    };
    const part: Record<string, string> = {
      Put: 'PutItem',
      Update: 'UpdateItem',
      Delete: 'DeleteItem',
      ConditionCheck: 'ConditionCheckItem',
    };
    return [...new Set(TransactItems.flatMap((item) => Object.keys(item).map((kind) => part[kind] ?? kind)))];
  }
  return [operation];
}

const isParsed = (body: unknown): body is object => typeof body === 'object' && body !== null && !(body instanceof Uint8Array);

/** The serialised body as text; the SDK's JSON body is bytes that warn when read as a string. */
function bodyText(body: unknown): string {
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  return typeof body === 'string' ? body : '{}';
}

function accessDenied(functionName: string, table: string, action: string): DynamoDBServiceException {
  return new DynamoDBServiceException({
    name: 'AccessDeniedException',
    $fault: 'client',
    $metadata: { httpStatusCode: 400 },
    message: accessDeniedMessage(functionName, table, action),
  });
}

function accessDeniedMessage(functionName: string, table: string, action: string): string {
  return `User: arn:aws:sts::000000000000:assumed-role/local/${functionName} is not authorized to perform: dynamodb:${action} on resource: the table because no identity-based policy allows the dynamodb:${action} action (the route table declares table: '${table}' for ${functionName}; functions/routes.ts)`;
}

/**
 * The access key a function's environment signs with (isolated mode): IAM knows the caller from the
 * signature, and so does the DynamoDB proxy, which grants the function what its route declares
 * (`deniedTableAction`). Letters and digits only, as DynamoDB Local accepts: the table access is a
 * digit, and a handler's `/` and `-` become `S` and `D` (handler names are lower case).
 */
const KEY_PREFIX = 'LOCALFN';
export function functionAccessKeyId(name: string, table: TableAccess): string {
  if (!/^[a-z0-9/-]+$/.test(name)) throw new Error(`A handler name of lower-case letters, digits, / and -: ${name}`);
  return `${KEY_PREFIX}${TABLE_ACCESS.indexOf(table)}${name.replaceAll('/', 'S').replaceAll('-', 'D')}`;
}

/** The access key a request is signed with (Signature Version 4's `Credential=<key>/…`), if signed. */
export function accessKeyOfRequest(authorization: string | undefined): string | undefined {
  return /Credential=([^/,\s]+)\//.exec(authorization ?? '')?.[1];
}

/** The function behind a request's signature (`functionAccessKeyId`), if a function signed it. */
export function functionOfRequest(authorization: string | undefined): { name: string; table: TableAccess } | undefined {
  const key = accessKeyOfRequest(authorization);
  const match = key && new RegExp(`^${KEY_PREFIX}(\\d)([a-z0-9SD]+)$`).exec(key);
  const table = match ? TABLE_ACCESS[Number(match[1])] : undefined;
  if (!match?.[2] || !table) return undefined;
  return { table, name: match[2].replaceAll('S', '/').replaceAll('D', '-') };
}

/** The error a request its function may not make gets, as the table answers it; undefined if allowed. */
export function deniedTableAction(
  fn: { name: string; table: TableAccess },
  request: { headers?: Record<string, string>; body?: unknown },
): { type: 'AccessDeniedException'; message: string } | undefined {
  const allowed = TABLE_ACTIONS[fn.table];
  const denied = actionsOf(request).find((action) => !allowed.includes(action));
  return denied ? { type: 'AccessDeniedException', message: accessDeniedMessage(fn.name, fn.table, denied) } : undefined;
}
