import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CAPABILITIES,
  type Capability,
  DEFAULT_TIMEOUT_SECONDS,
  KMS_OPERATIONS,
  type KmsOperation,
  MAX_TIMEOUT_SECONDS,
  PICTURE_OPERATIONS,
  type PictureOperation,
  TABLE_ACCESS,
} from './lib/capabilities';
import {
  fallbackRoute,
  httpRoutes,
  MAX_QUEUE_CONSUMER_TIMEOUT_SECONDS,
  originAuthorizer,
  queueConsumers,
  type RouteEntry,
  scheduledJobs,
  socketRoutes,
} from './routes';

const handlersDir = join(import.meta.dirname, 'handlers');

function handlerModules(dir = handlersDir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return handlerModules(path);
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) return [];
    return [relative(handlersDir, path).replace(/\.ts$/, '')];
  });
}

const tableEntries = [
  ...httpRoutes.map((r) => r.handler),
  ...socketRoutes.map((r) => r.handler),
  ...queueConsumers.map((r) => r.handler),
  ...scheduledJobs.map((r) => r.handler),
  fallbackRoute.handler,
  originAuthorizer.handler,
];

describe('the route table', () => {
  it('gives every entry a handler module that exports `handler`', async () => {
    for (const name of tableEntries) {
      const module = await import(/* @vite-ignore */ pathToFileURL(join(handlersDir, `${name}.ts`)).href);
      expect(typeof module.handler, name).toBe('function');
    }
  });

  it('gives every HTTP and socket route the handler module that serves its contract', async () => {
    for (const { handler, contract } of [...httpRoutes, ...socketRoutes]) {
      const module = await import(/* @vite-ignore */ pathToFileURL(join(handlersDir, `${handler}.ts`)).href);
      // The handler records the contract it was defined with (lib/serving.ts): the very object the entry names.
      expect(module.handler.contract, handler).toBe(contract);
    }
  });

  it('lists every handler module', () => {
    expect(handlerModules().sort()).toEqual([...new Set(tableEntries)].sort());
  });

  it('has one entry per method and path, and one per socket route', () => {
    const keys = httpRoutes.map((r) => `${r.contract.method} ${r.contract.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(socketRoutes.map((r) => r.contract.routeKey).sort()).toEqual(['$connect', '$default', '$disconnect']);
    for (const r of httpRoutes) expect(r.contract.path).toMatch(/^\/(api\/v1|webhooks)\//);
  });
});

/** The modules whose use means a capability: reaching one from a handler needs it declared. */
const CAPABILITY_MODULES: Record<string, Capability> = {
  'lib/mail.ts': 'mail',
  'lib/secrets.ts': 'customerSecrets',
  'realtime/delivery.ts': 'publish',
  'twilio/rest-client.ts': 'twilio',
  'auth/sessions.ts': 'jwt',
  'company/deletion-queue.ts': 'companyDeletion',
  'lib/picture-bucket.ts': 'pictures',
};

/** Every module of `functions/` a handler imports, directly or not (relative static and dynamic imports). */
function importGraph(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const source = readFileSync(entry, 'utf8');
  for (const [, spec] of source.matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)) {
    const file = resolve(dirname(entry), `${spec}.ts`);
    if (existsSync(file) && file.startsWith(join(import.meta.dirname))) importGraph(file, seen);
  }
  return seen;
}

/** What a route's code can reach: capability modules, the app URL, and token verification for signed-in routes. */
function usedCapabilities(entry: RouteEntry & { contract?: { auth: string } }): Capability[] {
  const used = new Set<Capability>();
  for (const file of importGraph(join(handlersDir, `${entry.handler}.ts`))) {
    const capability = CAPABILITY_MODULES[relative(import.meta.dirname, file)];
    if (capability) used.add(capability);
    if (readFileSync(file, 'utf8').includes("setting('APP_URL')")) used.add('appUrl');
  }
  if (entry.contract?.auth === 'user' || entry.contract?.auth === 'platformAdmin') used.add('jwt');
  return [...used].sort();
}

const allEntries: (RouteEntry & { contract?: { auth: string } })[] = [
  ...httpRoutes,
  ...socketRoutes,
  ...queueConsumers,
  ...scheduledJobs,
  fallbackRoute,
  originAuthorizer,
];

describe('capabilities and timeouts', () => {
  it('are declared by every entry, from the known list, without repeats', () => {
    for (const entry of allEntries) {
      expect(Array.isArray(entry.capabilities), `${entry.handler} declares no capabilities`).toBe(true);
      for (const capability of entry.capabilities) expect(CAPABILITIES, entry.handler).toContain(capability);
      expect(new Set(entry.capabilities).size, entry.handler).toBe(entry.capabilities.length);
    }
  });

  it('match what each handler really uses: nothing undeclared, nothing granted in vain', () => {
    for (const entry of allEntries) {
      expect.soft([...entry.capabilities].sort(), `capabilities of ${entry.handler}`).toEqual(usedCapabilities(entry));
    }
  });

  it('give every function a timeout that ends before API Gateway gives up, longer only for Twilio', () => {
    for (const entry of [...httpRoutes, ...socketRoutes, fallbackRoute, originAuthorizer]) {
      const timeout = entry.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
      expect(Number.isInteger(timeout) && timeout >= 1 && timeout <= MAX_TIMEOUT_SECONDS, entry.handler).toBe(true);
      if (timeout > DEFAULT_TIMEOUT_SECONDS) expect(entry.capabilities, entry.handler).toContain('twilio');
    }
  });

  it('give queue consumers a timeout within Lambda’s, none of them an API’s', () => {
    for (const entry of queueConsumers) {
      const timeout = entry.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
      expect(timeout > 0 && timeout <= MAX_QUEUE_CONSUMER_TIMEOUT_SECONDS, entry.handler).toBe(true);
      expect(entry.capabilities, `${entry.handler} sends its next step`).toContain(entry.queue);
    }
  });

  it('give scheduled jobs a timeout within Lambda’s, one schedule each', () => {
    for (const entry of scheduledJobs) {
      const timeout = entry.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
      expect(timeout > 0 && timeout <= MAX_QUEUE_CONSUMER_TIMEOUT_SECONDS, entry.handler).toBe(true);
    }
    expect(new Set(scheduledJobs.map((j) => j.schedule)).size).toBe(scheduledJobs.length);
  });
});

/** The customer-secret operations a route's code can reach (calls outside lib/secrets.ts itself). */
function usedKmsOperations(entry: RouteEntry): KmsOperation[] {
  const used = new Set<KmsOperation>();
  for (const file of importGraph(join(handlersDir, `${entry.handler}.ts`))) {
    if (relative(import.meta.dirname, file) === 'lib/secrets.ts') continue;
    const source = readFileSync(file, 'utf8');
    if (/\bencryptSecret\(/.test(source)) used.add('encrypt');
    if (/\bdecryptSecret\(/.test(source)) used.add('decrypt');
  }
  return [...used].sort();
}

/** The table access a handler's code needs, as far as a scan goes: only a sweep may Scan. */
describe('table scans', () => {
  it('are in the code of the entries that declare `sweep` only', () => {
    for (const entry of allEntries) {
      const scans = [...importGraph(join(handlersDir, `${entry.handler}.ts`))].some((file) =>
        /\bScanCommand\b/.test(readFileSync(file, 'utf8')),
      );
      expect(scans, `${entry.handler} scans the table`).toBe(entry.table === 'sweep');
    }
  });
});

describe('table access and KMS operations', () => {
  it('are declared by every entry, from the known lists', () => {
    for (const entry of allEntries) {
      expect(TABLE_ACCESS, `${entry.handler} table`).toContain(entry.table);
      for (const op of entry.kms ?? []) expect(KMS_OPERATIONS, entry.handler).toContain(op);
      expect(new Set(entry.kms).size, entry.handler).toBe(entry.kms?.length ?? 0);
    }
  });

  it('declare KMS operations exactly with customerSecrets, and the ones the code calls', () => {
    for (const entry of allEntries) {
      const declared = [...(entry.kms ?? [])].sort();
      expect
        .soft(declared.length > 0, `${entry.handler}: kms declared with customerSecrets`)
        .toBe(entry.capabilities.includes('customerSecrets'));
      expect.soft(declared, `kms of ${entry.handler}`).toEqual(usedKmsOperations(entry));
    }
  });
});

describe('password hashing', () => {
  it('is declared (`hashesPasswords`) by exactly the entries whose code reaches the password module', () => {
    for (const entry of allEntries) {
      const hashes = [...importGraph(join(handlersDir, `${entry.handler}.ts`))].some(
        (file) => relative(import.meta.dirname, file) === 'auth/passwords.ts',
      );
      expect.soft(entry.hashesPasswords === true, `${entry.handler} hashes passwords`).toBe(hashes);
    }
    // Sign-up, sign-in, accepting an invitation and the account's own password set a password or check one; nothing else does.
    expect(allEntries.filter((entry) => entry.hashesPasswords).map((entry) => entry.handler)).toEqual([
      'auth/register',
      'auth/login',
      'invitations/accept',
      'auth/reset-password',
      'auth/change-password',
    ]);
  });
});

/** The pictures-bucket operations a route's code can reach (calls outside lib/picture-bucket.ts itself). */
function usedPictureOperations(entry: RouteEntry): PictureOperation[] {
  const calls: Record<PictureOperation, RegExp> = {
    upload: /\bpictureUploadUrl\(/,
    send: /\b(inspectUpload|keepSentPicture)\(/,
    read: /\bpictureReadUrl\(/,
    delete: /\bdeleteCompanyPictures\(/,
  };
  const used = new Set<PictureOperation>();
  for (const file of importGraph(join(handlersDir, `${entry.handler}.ts`))) {
    if (relative(import.meta.dirname, file) === 'lib/picture-bucket.ts') continue;
    const source = readFileSync(file, 'utf8');
    for (const op of PICTURE_OPERATIONS) if (calls[op].test(source)) used.add(op);
  }
  return PICTURE_OPERATIONS.filter((op) => used.has(op));
}

describe('pictures-bucket operations', () => {
  it('are declared exactly with the pictures capability, from the known list, and the ones the code calls', () => {
    for (const entry of allEntries) {
      const declared = entry.pictures ?? [];
      for (const op of declared) expect(PICTURE_OPERATIONS, entry.handler).toContain(op);
      expect
        .soft(declared.length > 0, `${entry.handler}: pictures declared with the pictures capability`)
        .toBe(entry.capabilities.includes('pictures'));
      expect.soft([...declared].sort(), `pictures of ${entry.handler}`).toEqual([...usedPictureOperations(entry)].sort());
    }
  });
});
