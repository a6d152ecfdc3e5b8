import { randomUUID } from 'node:crypto';
import { Agent, createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import { DescribeTableCommand, type DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { Logger } from './log';
import { deniedTableAction, functionOfRequest } from './table-guard';

/**
 * The local DynamoDB endpoint (`DYNAMODB_PORT`): a small HTTP proxy in front of DynamoDB Local that
 * gives it the transaction conflicts DynamoDB has in AWS. DynamoDB Local runs one request at a time,
 * so overlapping transactions never meet there (measured: 1,000 TransactWriteItems, 50 at a time on
 * one item with plain PutItems racing them, all succeeded); here every request is "in flight" from
 * the moment it arrives until its answer is sent, and the documented conflict rules apply between
 * requests in flight at the same moment (DynamoDB developer guide, "Transaction conflict handling"):
 *
 * - a TransactWriteItems touching an item another in-flight TransactWriteItems touches is cancelled
 *   (`TransactionCanceledException`, `TransactionConflict` at that item's index, `None` elsewhere);
 * - a PutItem/UpdateItem/DeleteItem/BatchWriteItem on an item an in-flight TransactWriteItems holds
 *   fails with `TransactionConflictException`;
 * - a TransactGetItems touching an item an in-flight write (transactional or not) holds is cancelled,
 *   and one already in flight when such a write arrives is cancelled when its answer comes back.
 *   Two reads never conflict;
 * - a TransactWriteItems carrying the `ClientRequestToken` of one in flight is answered
 *   `TransactionInProgressException`. DynamoDB Local honours the token itself once the first has
 *   finished (measured: the same token and request again within 10 minutes answers success without
 *   applying it again; the same token with another request, IdempotentParameterMismatchException).
 *
 * Which of two overlapping transactions is cancelled: AWS documents that either may be; here it is
 * always the one that arrived second, because the first is already running in DynamoDB Local and its
 * effects cannot be withdrawn, while the second has not touched anything yet. A TransactGetItems has
 * no effects, so it is the one that yields when a write arrives during it.
 *
 * Everything else passes through unchanged, answers byte for byte. `conflicts: false`
 * (`DYNAMODB_CONFLICTS=off`) turns the rules off; the counts go on. `GET /_local/stats` answers the
 * counts since start.
 *
 * `POST /_local/holds` with `{ TableName, Key }` (DynamoDB JSON) puts a transaction of another writer
 * in flight on that item until `DELETE /_local/holds/<id>`: a test that needs its writers to meet a
 * conflict holds the item, waits until `GET /_local/holds/<id>` has turned one away, and lets go,
 * instead of hoping that parallel requests overlap on a loaded machine. Both answer `{ turnedAway }`.
 */
export async function startDynamoDbProxy(options: {
  port: number;
  /** DynamoDB Local's own endpoint, e.g. http://127.0.0.1:8001. */
  upstream: string;
  /** A client of DynamoDB Local, to learn each table's key attributes. */
  client: DynamoDBClient;
  conflicts: boolean;
  /** Write units from each written item's size before and after, index writes included (see `capacityUnits`). */
  itemSizes?: boolean;
  log: Logger;
}) {
  const upstream = new URL(options.upstream);
  const agent = new Agent({ keepAlive: true });
  const stats = {
    transactionConflicts: 0,
    requests: {} as Record<string, number>,
    /** Requests per calling function and operation ('-' for unsigned callers: in-process functions, tests). */
    byFunction: {} as Record<string, Record<string, number>>,
    /**
     * The request units DynamoDB on-demand would bill, estimated per request (bench/cost.ts prices
     * them). A read: 1 per 4 KB of its answer (DynamoDB JSON, a little more than the items' size), half
     * that when eventually consistent, twice that when transactional, at least one unit's worth.
     * A write, with `itemSizes`: 1 per KB of the larger of the item before and after (DynamoDB's
     * rule), twice that in a transaction, and 1 per KB for each index entry it puts or deletes (the
     * indexes project every attribute). Without it: 1 per KB of the item a put carries, 1 for an
     * update or delete, 2 per transaction item, no index writes. `indexWrite` is the share of `write`
     * spent on indexes.
     */
    capacityUnits: { read: 0, write: 0, indexWrite: 0 },
    /** DynamoDB Local's time per operation, from sending it the request until the end of its answer. */
    upstream: { inFlight: 0, inFlightPeak: 0, ms: {} as Record<string, { count: number; total: number; max: number }> },
  };
  const holders = new Map<string, Set<Flight>>();
  /** The transactions tests put in flight (`/_local/holds`), by id. */
  const holds = new Map<string, Flight>();
  /** The ClientRequestTokens of the TransactWriteItems in flight. */
  const tokens = new Set<string>();
  const keys = keySchemas(options.client);

  const server = createServer(async (req, res) => {
    if (req.method === 'GET' && req.url === '/_local/stats') return json(res, 200, stats, 'application/json');
    const body = await readBody(req).catch(() => undefined);
    if (!body) return void res.destroy();
    if (req.url?.startsWith('/_local/holds')) return hold(req, res, body);
    const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1];
    if (!operation) return forward(req, res, body);
    stats.requests[operation] = (stats.requests[operation] ?? 0) + 1;
    // What the calling function's role allows (isolated functions sign as themselves; local/table-guard.ts).
    const caller = functionOfRequest(req.headers.authorization);
    const byOperation = stats.byFunction[caller?.name ?? '-'] ?? {};
    byOperation[operation] = (byOperation[operation] ?? 0) + 1;
    stats.byFunction[caller?.name ?? '-'] = byOperation;
    // One parse of the request for every rule below (the guard, the units, the items in flight).
    const input = parseInput(body);
    const denied =
      caller &&
      deniedTableAction(caller, { headers: { 'x-amz-target': String(req.headers['x-amz-target']) }, body: input ?? body });
    if (denied) return error(res, denied.type, { message: denied.message });
    if (/^(Create|Delete|Update)Table$/.test(operation)) keys.forget(input?.TableName as string | undefined);

    const units = estimateUnits(operation, input);
    const kind = KINDS[operation];
    // With item sizes, a write is counted once answered, from what it changed.
    const sized =
      options.itemSizes && input && kind !== undefined && kind !== 'transactGet' ? await sizedWrite(operation, input) : undefined;
    if (!sized) stats.capacityUnits.write += units.write;
    if (!kind) return forward(req, res, body, undefined, units.readPer4Kb);
    const flight: Flight = { kind, items: [], doomed: new Set() };
    let token: string | undefined;
    try {
      if (!input) throw new Error('not JSON');
      flight.items = await itemsOf(operation, input, keys);
      if (kind === 'transactWrite') token = input.ClientRequestToken as string | undefined;
    } catch {
      // Malformed or about an unknown table: DynamoDB Local gives the answer it deserves.
      return forward(req, res, body);
    }
    if (options.conflicts && token !== undefined) {
      // A repeat of a transaction still running (its caller gave up on the answer and retried): DynamoDB
      // answers TransactionInProgressException, and the repeat, once the first has finished, its outcome.
      if (tokens.has(token)) return error(res, 'TransactionInProgressException', { message: 'Transaction is in progress' });
      tokens.add(token);
      res.once('close', () => tokens.delete(token));
    }
    if (options.conflicts) {
      const rejected = admit(flight, holders);
      if (rejected) {
        stats.transactionConflicts += 1;
        return kind === 'write' ? conflictException(res) : cancelled(res, flight.items.length, rejected);
      }
    }
    for (const item of new Set(flight.items)) {
      const set = holders.get(item) ?? new Set();
      set.add(flight);
      holders.set(item, set);
    }
    res.once('close', () => {
      for (const item of flight.items) {
        const set = holders.get(item);
        set?.delete(flight);
        if (set?.size === 0) holders.delete(item);
      }
    });
    forward(
      req,
      res,
      body,
      (status) => {
        if (sized) void sized.count(status);
        // A read that a write overtook is cancelled as AWS would; it changed nothing, so nothing is lost.
        if (kind !== 'transactGet' || !flight.doomed.size || status !== 200) return false;
        stats.transactionConflicts += 1;
        cancelled(res, flight.items.length, flight.doomed);
        return true;
      },
      units.readPer4Kb,
    );
  });

  /**
   * A write's units from its items (`itemSizes`): each item read from DynamoDB Local before it is sent
   * and after its answer, then counted by `writeUnits`. A refused write is billed too, for the item
   * as it stayed.
   */
  async function sizedWrite(operation: string, input: Json) {
    let writes: { table: string; key: Key }[];
    try {
      writes = await writtenItems(operation, input, keys);
    } catch {
      return undefined;
    }
    const read = (w: { table: string; key: Key }) =>
      options.client
        .send(new GetItemCommand({ TableName: w.table, Key: w.key as never, ConsistentRead: true }))
        .then(({ Item }) => Item as Key | undefined)
        .catch(() => undefined);
    const before = await Promise.all(writes.map(read));
    const transactional = operation === 'TransactWriteItems';
    return {
      count: async (status: number) => {
        const after = status === 200 ? await Promise.all(writes.map(read)) : before;
        for (const [i, w] of writes.entries()) {
          const units = writeUnits(before[i], after[i], (await keys.describe(w.table)).indexes, transactional);
          stats.capacityUnits.write += units.table + units.indexes;
          stats.capacityUnits.indexWrite += units.indexes;
        }
      },
    };
  }

  /** `/_local/holds`: a test's transaction in flight on one item, and what it turned away. */
  async function hold(req: IncomingMessage, res: ServerResponse, body: Buffer) {
    const id = req.url?.split('/')[3];
    if (req.method === 'POST' && !id) {
      if (!options.conflicts) return json(res, 409, { message: 'Transaction conflicts are off' }, 'application/json');
      let item: string;
      try {
        const input = JSON.parse(body.toString('utf8'));
        if (typeof input.TableName !== 'string' || !input.Key) throw new Error('no TableName and Key');
        [item = ''] = await itemsOf('TransactWriteItems', { TransactItems: [{ ConditionCheck: input }] }, keys);
      } catch (e) {
        return json(res, 400, { message: `Not a hold: ${(e as Error).message}` }, 'application/json');
      }
      const flight: Flight = { kind: 'transactWrite', items: [item], doomed: new Set(), turnedAway: 0 };
      const holdId = randomUUID();
      holds.set(holdId, flight);
      holders.set(item, (holders.get(item) ?? new Set()).add(flight));
      return json(res, 201, { id: holdId, turnedAway: 0 }, 'application/json');
    }
    const flight = id ? holds.get(id) : undefined;
    if (!flight || !id) return json(res, 404, { message: 'No such hold' }, 'application/json');
    if (req.method === 'DELETE') {
      holds.delete(id);
      for (const item of flight.items) {
        const set = holders.get(item);
        set?.delete(flight);
        if (set?.size === 0) holders.delete(item);
      }
    }
    return json(res, 200, { turnedAway: flight.turnedAway }, 'application/json');
  }

  /** Sends the request on to DynamoDB Local and its answer back unchanged (unless `replace` answers instead). */
  function forward(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    replace?: (status: number) => boolean,
    /** Read units per 4 KB of a successful answer (0 for a write). */
    readPer4Kb = 0,
  ) {
    const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] || 'other';
    const sent = performance.now();
    const upstreamStats = stats.upstream;
    upstreamStats.inFlight += 1;
    upstreamStats.inFlightPeak = Math.max(upstreamStats.inFlightPeak, upstreamStats.inFlight);
    let done = false;
    const finished = () => {
      if (done) return;
      done = true;
      upstreamStats.inFlight -= 1;
      const ms = performance.now() - sent;
      const entry = upstreamStats.ms[operation] ?? { count: 0, total: 0, max: 0 };
      entry.count += 1;
      entry.total += ms;
      entry.max = Math.max(entry.max, ms);
      upstreamStats.ms[operation] = entry;
    };
    const out = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent,
      },
      (answer) => {
        if (readPer4Kb > 0 && answer.statusCode === 200) {
          let bytes = 0;
          answer.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
          });
          answer.once('end', () => {
            stats.capacityUnits.read += Math.max(1, Math.ceil(bytes / 4096)) * readPer4Kb;
          });
        }
        answer.once('end', finished);
        answer.once('close', finished);
        if (replace?.(answer.statusCode ?? 0)) return void answer.resume();
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    // The SDK sees a dropped connection, as it would from DynamoDB, and retries.
    out.once('close', finished);
    out.once('error', (error) => {
      options.log.warn(`DynamoDB Local did not answer: ${error.message}`);
      res.destroy();
    });
    res.once('close', () => {
      if (!res.writableFinished) out.destroy();
    });
    out.end(body);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  options.log.info(`conflict proxy on ${port} (transaction conflicts ${options.conflicts ? 'on' : 'off'})`);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stats: () => structuredClone(stats),
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      agent.destroy();
    },
  };
}

export type DynamoDbProxy = Awaited<ReturnType<typeof startDynamoDbProxy>>;

type Kind = 'transactWrite' | 'transactGet' | 'write';
interface Flight {
  kind: Kind;
  /** The items it touches (table and primary key), in the order of its request. */
  items: string[];
  /** For a TransactGetItems: the indexes a write arriving during it overtook. */
  doomed: Set<number>;
  /** For a test's hold: the requests it made fail. */
  turnedAway?: number;
}

const KINDS: Record<string, Kind> = {
  TransactWriteItems: 'transactWrite',
  TransactGetItems: 'transactGet',
  PutItem: 'write',
  UpdateItem: 'write',
  DeleteItem: 'write',
  BatchWriteItem: 'write',
};

/**
 * Applies the rules to an arriving request against those in flight: the indexes of its items that
 * conflict (it is then rejected), or nothing (it goes on; reads it overtakes are doomed).
 */
function admit(flight: Flight, holders: Map<string, Set<Flight>>): Set<number> | undefined {
  const conflicting = new Set<number>();
  const overtaken: [Flight, string][] = [];
  flight.items.forEach((item, index) => {
    for (const other of holders.get(item) ?? []) {
      const conflicts = flight.kind === 'transactGet' ? other.kind !== 'transactGet' : other.kind === 'transactWrite';
      if (conflicts) {
        conflicting.add(index);
        if (other.turnedAway !== undefined) other.turnedAway += 1;
      } else if (other.kind === 'transactGet' && flight.kind !== 'transactGet') overtaken.push([other, item]);
    }
  });
  if (conflicting.size) return conflicting;
  for (const [read, item] of overtaken) read.doomed.add(read.items.indexOf(item));
  return undefined;
}

type Json = Record<string, unknown>;

const READS: Record<string, number> = { GetItem: 1, Query: 1, Scan: 1, BatchGetItem: 1, TransactGetItems: 2 };

/** The write units a request costs, and the read units per 4 KB its answer will cost (see `capacityUnits`). */
function estimateUnits(operation: string, input: Json | undefined): { write: number; readPer4Kb: number } {
  if (!input) return { write: 0, readPer4Kb: 0 };
  const perKb = (item: unknown) => Math.max(1, Math.ceil(Buffer.byteLength(JSON.stringify(item ?? {})) / 1024));
  switch (operation) {
    case 'PutItem':
      return { write: perKb(input.Item), readPer4Kb: 0 };
    case 'UpdateItem':
    case 'DeleteItem':
      return { write: 1, readPer4Kb: 0 };
    case 'TransactWriteItems':
      return { write: 2 * ((input.TransactItems as unknown[] | undefined)?.length ?? 0), readPer4Kb: 0 };
    case 'BatchWriteItem':
      return {
        write: Object.values((input.RequestItems ?? {}) as Record<string, unknown[]>).reduce((n, r) => n + r.length, 0),
        readPer4Kb: 0,
      };
  }
  const read = READS[operation];
  if (!read) return { write: 0, readPer4Kb: 0 };
  const consistent = operation === 'TransactGetItems' || input.ConsistentRead === true;
  return { write: 0, readPer4Kb: consistent ? read : read / 2 };
}
type Key = Record<string, unknown>;

/** The items (table and primary key) a request touches, in its own order. */
async function itemsOf(operation: string, input: Json, keys: ReturnType<typeof keySchemas>): Promise<string[]> {
  const parts: [table: string, key: Key | undefined, item: Key | undefined][] = [];
  if (operation === 'TransactWriteItems' || operation === 'TransactGetItems') {
    for (const entry of input.TransactItems as Json[]) {
      const action = Object.values(entry)[0] as { TableName: string; Key?: Key; Item?: Key };
      parts.push([action.TableName, action.Key, action.Item]);
    }
  } else if (operation === 'BatchWriteItem') {
    for (const [table, requests] of Object.entries(input.RequestItems as Record<string, Json[]>)) {
      for (const r of requests) {
        const put = r.PutRequest as { Item: Key } | undefined;
        const del = r.DeleteRequest as { Key: Key } | undefined;
        parts.push([table, del?.Key, put?.Item]);
      }
    }
  } else {
    parts.push([input.TableName as string, input.Key as Key | undefined, input.Item as Key | undefined]);
  }
  return Promise.all(
    parts.map(async ([table, key, item]) => {
      const names = await keys.of(table);
      const source = key ?? item ?? {};
      return JSON.stringify([table, ...names.map((name) => [name, source[name]])]);
    }),
  );
}

interface TableShape {
  /** The key attribute names, sorted. */
  keys: string[];
  /** Each global secondary index's key attribute names. */
  indexes: string[][];
}

/** Each table's key attribute names and indexes, asked of DynamoDB Local once (again after the table changes). */
function keySchemas(client: DynamoDBClient) {
  const known = new Map<string, Promise<TableShape>>();
  const describe = (table: string): Promise<TableShape> => {
    let shape = known.get(table);
    if (!shape) {
      shape = client.send(new DescribeTableCommand({ TableName: table })).then(({ Table }) => ({
        keys: (Table?.KeySchema ?? []).map((k) => k.AttributeName ?? '').sort(),
        indexes: (Table?.GlobalSecondaryIndexes ?? []).map((index) => (index.KeySchema ?? []).map((k) => k.AttributeName ?? '')),
      }));
      shape.catch(() => known.delete(table));
      known.set(table, shape);
    }
    return shape;
  };
  return {
    describe,
    of: async (table: string): Promise<string[]> => (await describe(table)).keys,
    forget(table: string | undefined) {
      if (table) known.delete(table);
    },
  };
}

/** The items (table and key) a write request writes, each once. */
async function writtenItems(operation: string, input: Json, keys: ReturnType<typeof keySchemas>) {
  const parts: { table: string; key: Key }[] = [];
  const add = async (table: string, keyOrItem: Key | undefined) => {
    if (!keyOrItem) return;
    const names = await keys.of(table);
    parts.push({ table, key: Object.fromEntries(names.map((name) => [name, keyOrItem[name]])) });
  };
  if (operation === 'TransactWriteItems') {
    for (const entry of input.TransactItems as Json[]) {
      const [kind, action] = Object.entries(entry)[0] as [string, { TableName: string; Key?: Key; Item?: Key }];
      // A condition check writes nothing (it is billed as a read).
      if (kind !== 'ConditionCheck') await add(action.TableName, action.Key ?? action.Item);
    }
  } else if (operation === 'BatchWriteItem') {
    for (const [table, requests] of Object.entries(input.RequestItems as Record<string, Json[]>)) {
      for (const r of requests) {
        await add(table, (r.PutRequest as { Item: Key } | undefined)?.Item ?? (r.DeleteRequest as { Key: Key } | undefined)?.Key);
      }
    }
  } else {
    await add(input.TableName as string, (input.Key ?? input.Item) as Key | undefined);
  }
  return parts;
}

/**
 * The write units of one item's write, by DynamoDB's rules: the table 1 per KB of the larger of the
 * item before and after (2 in a transaction); each index whose keys the item has, before or after, 1
 * per KB of the entry it puts, and of the one it deletes when the item leaves it or its index keys change.
 */
export function writeUnits(
  before: Key | undefined,
  after: Key | undefined,
  indexes: readonly string[][],
  transactional: boolean,
): { table: number; indexes: number } {
  const kb = (item: Key | undefined) => (item ? Math.max(1, Math.ceil(itemBytes(item) / 1024)) : 0);
  const table = Math.max(1, kb(before), kb(after)) * (transactional ? 2 : 1);
  let index = 0;
  for (const names of indexes) {
    const keyOf = (item: Key | undefined) =>
      item && names.every((name) => item[name] !== undefined) ? JSON.stringify(names.map((name) => item[name])) : undefined;
    const was = keyOf(before);
    const is = keyOf(after);
    if (is !== undefined) index += kb(after);
    if (was !== undefined && was !== is) index += kb(before);
    // Unchanged item: nothing written to the index (a refused write, or one that changed nothing).
    if (was !== undefined && was === is && JSON.stringify(before) === JSON.stringify(after)) index -= kb(after);
  }
  return { table, indexes: index };
}

/**
 * An item's size as DynamoDB counts it: each attribute's name and value in bytes (strings as UTF-8,
 * numbers about one byte per two digits plus one, 1 for a boolean or null, 3 for a list or map plus 1
 * a member), from its DynamoDB JSON.
 */
export function itemBytes(item: Key): number {
  const value = (v: Record<string, unknown>): number => {
    const [type, content] = Object.entries(v)[0] ?? ['NULL', true];
    switch (type) {
      case 'S':
        return Buffer.byteLength(content as string);
      case 'N':
        return Math.ceil(String(content).replace(/^-|\.|e.*$/gi, '').length / 2) + 1;
      case 'B':
        return Buffer.from(content as string, 'base64').length;
      case 'BOOL':
      case 'NULL':
        return 1;
      case 'SS':
        return (content as string[]).reduce((n, s) => n + Buffer.byteLength(s), 0);
      case 'NS':
        return (content as string[]).reduce((n, s) => n + value({ N: s }), 0);
      case 'BS':
        return (content as string[]).reduce((n, s) => n + Buffer.from(s, 'base64').length, 0);
      case 'L':
        return 3 + (content as Record<string, unknown>[]).reduce((n, member) => n + 1 + value(member), 0);
      case 'M':
        return (
          3 +
          Object.entries(content as Key).reduce(
            (n, [name, member]) => n + 1 + Buffer.byteLength(name) + value(member as Record<string, unknown>),
            0,
          )
        );
      default:
        return Buffer.byteLength(JSON.stringify(content));
    }
  };
  return Object.entries(item).reduce((n, [name, v]) => n + Buffer.byteLength(name) + value(v as Record<string, unknown>), 0);
}

/** A request's JSON body as an object; undefined if it is not one (DynamoDB Local answers it as it deserves). */
function parseInput(body: Buffer): Json | undefined {
  try {
    const input: unknown = JSON.parse(body.toString('utf8'));
    return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Json) : undefined;
  } catch {
    return undefined;
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** DynamoDB's answer to a cancelled transaction: one reason per item, in the request's order. */
function cancelled(res: ServerResponse, count: number, conflicting: Set<number>) {
  const reasons = Array.from({ length: count }, (_, i) =>
    conflicting.has(i) ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' } : { Code: 'None' },
  );
  error(res, 'TransactionCanceledException', {
    CancellationReasons: reasons,
    Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
  });
}

function conflictException(res: ServerResponse) {
  error(res, 'TransactionConflictException', { message: 'Transaction is ongoing for the item' });
}

function error(res: ServerResponse, type: string, fields: Json) {
  json(res, 400, { __type: `com.amazonaws.dynamodb.v20120810#${type}`, ...fields });
}

function json(res: ServerResponse, status: number, value: unknown, type = 'application/x-amz-json-1.0') {
  const bytes = Buffer.from(JSON.stringify(value));
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': bytes.length,
    'x-amzn-RequestId': randomUUID(),
    // As DynamoDB sends it: the CRC32 of the body, which the SDKs may check.
    'x-amz-crc32': String(crc32(bytes)),
  });
  res.end(bytes);
}
