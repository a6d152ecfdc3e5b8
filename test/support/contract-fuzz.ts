import type * as z from 'zod/mini';
import type { HttpRouteEntry } from '../../functions/routes';
import type { HttpContract } from '../../shared/contract/route';

/**
 * Requests generated from a route's contract (its zod/mini schemas read through `_zod.def`, never a
 * hand-written list of fields): a valid one, then every field broken in every way, then broken
 * bodies, query strings, path ids and tokens. Deterministic for a seed, so a failure can be replayed.
 */

/** mulberry32: small, seedable, good enough to pick values. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const hex = (length: number) => Array.from({ length }, () => Math.floor(next() * 16).toString(16)).join('');
  return { next, hex, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T };
}
export type Random = ReturnType<typeof seededRandom>;

/** A number per text, to derive one route's random stream from the run's seed. */
export function hashText(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

interface Def {
  type: string;
  shape?: Record<string, z.ZodMiniType>;
  innerType?: z.ZodMiniType;
  in?: z.ZodMiniType;
  element?: z.ZodMiniType;
  options?: z.ZodMiniType[];
  entries?: Record<string, string>;
  values?: unknown[];
  coerce?: boolean;
  defaultValue?: unknown;
}
const defOf = (schema: z.ZodMiniType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schema under optional/default/nullable/pipe wrappers: what a present, non-null value must be. */
function unwrap(schema: z.ZodMiniType): z.ZodMiniType {
  const def = defOf(schema);
  if (def.type === 'optional' || def.type === 'default' || def.type === 'nullable' || def.type === 'prefault') {
    return unwrap(def.innerType as z.ZodMiniType);
  }
  if (def.type === 'pipe') return unwrap(def.in as z.ZodMiniType);
  return schema;
}

/** Texts a field may hold, the likeliest for its name first; the schema keeps the first it accepts. */
function textCandidates(key: string, random: Random): string[] {
  const sid = (prefix: string) => `${prefix}${random.hex(32)}`;
  const email = `fuzz-${random.hex(10)}@example.test`;
  const phone = `+1202555${String(Math.floor(random.next() * 10_000)).padStart(4, '0')}`;
  const sids = [sid('SM'), sid('CA'), sid('AC'), sid('PN')];
  const byName: [RegExp, string[]][] = [
    [/email/i, [email]],
    [/phone|^(from|to|caller|called)$/i, [phone]],
    [/^messagesid$/i, [sid('SM')]],
    [/^(parentcallsid|callsid)$/i, [sid('CA')]],
    [/^accountsid$/i, [sid('AC')]],
    [/sid$/i, sids],
    [/date/i, [new Date().toISOString()]],
    [/password/i, ['correct horse battery staple']],
    [/status$/i, ['delivered', 'completed']],
  ];
  const hinted = byName.filter(([pattern]) => pattern.test(key)).flatMap(([, values]) => values);
  return [...hinted, `Fuzz ${random.hex(6)}`, email, phone, ...sids, '1', ''];
}

/**
 * A value the schema accepts (undefined: the field is best left out, e.g. `z.undefined()`). `key` is
 * the field's name, which picks likely texts (an e-mail for `email`), and `idFor` may supply ids.
 */
export function validValue(
  schema: z.ZodMiniType,
  random: Random,
  key = '',
  idFor?: (key: string) => string | undefined,
  options: { requiredOnly?: boolean } = {},
): unknown {
  const def = defOf(schema);
  const accepted = (candidates: unknown[]) => candidates.find((c) => schema.safeParse(c).success);
  switch (def.type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [name, field] of Object.entries(def.shape ?? {})) {
        const { type } = defOf(field);
        if (options.requiredOnly && (type === 'optional' || type === 'default')) continue;
        const v = validValue(field, random, name, idFor);
        if (v !== undefined) value[name] = v;
      }
      return value;
    }
    case 'optional':
    case 'default':
    case 'prefault':
    case 'nullable':
      return validValue(def.innerType as z.ZodMiniType, random, key, idFor);
    case 'pipe': {
      const inner = validValue(def.in as z.ZodMiniType, random, key, idFor);
      return schema.safeParse(inner).success ? inner : accepted(textCandidates(key, random));
    }
    case 'string': {
      const id = idFor?.(key);
      return accepted([...(id === undefined ? [] : [id]), ...textCandidates(key, random)]);
    }
    case 'number':
      return accepted([1, 5, 0]);
    case 'boolean':
      return true;
    case 'enum':
      return accepted(Object.values(def.entries ?? {}).filter((v) => v !== ''));
    case 'literal':
      return def.values?.[0];
    case 'array':
      return [validValue(def.element as z.ZodMiniType, random, key, idFor)];
    case 'record':
      return {};
    case 'union':
      return accepted((def.options ?? []).map((o) => validValue(o, random, key, idFor)));
    case 'undefined':
      return undefined;
    default:
      return 'x';
  }
}

/**
 * Every field of an object schema as a path (nested objects and the first element of arrays of
 * objects included), with the unwrapped schema of the field.
 */
function fieldPaths(schema: z.ZodMiniType, prefix: (string | number)[] = []): { path: (string | number)[]; leaf: Def }[] {
  const def = defOf(unwrap(schema));
  if (def.type !== 'object') return [];
  return Object.entries(def.shape ?? {}).flatMap(([name, field]) => {
    const inner = unwrap(field);
    const innerDef = defOf(inner);
    const path = [...prefix, name];
    const own = { path, leaf: innerDef };
    if (innerDef.type === 'object') return [own, ...fieldPaths(inner, path)];
    if (innerDef.type === 'array' && defOf(unwrap(innerDef.element as z.ZodMiniType)).type === 'object') {
      return [own, ...fieldPaths(innerDef.element as z.ZodMiniType, [...path, 0])];
    }
    return [own];
  });
}

/** A copy of `value` with the field at `path` set (or removed, for `remove`). */
function withField(value: unknown, path: (string | number)[], replacement: unknown | typeof remove): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  if (replacement === remove) delete node[last];
  else node[last] = replacement;
  return copy;
}
const remove = Symbol('remove');

/** Unicode a text field should survive or refuse cleanly: a lone surrogate, NUL, direction marks, emoji. */
const UNICODE_EDGES: readonly [string, string][] = [
  ['lone surrogates (a low one, then a high one)', '\udc00\ud800'],
  ['NUL', '\u0000'],
  ['RTL override and marks', '\u202e\u200f\u061c'],
  ['emoji (ZWJ sequence, flag)', '👩‍👩‍👧‍👦🇺🇦'],
];
const LONG_TEXT = 'x'.repeat(10_000);

/** `{"a":{"a":…}}` this many levels deep. */
const deeplyNested = (depth: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

/** How one field is broken: a name for the failure message and the value (or `remove`). */
function fieldMutations(leaf: Def, valid: unknown, options: { byLeaf?: boolean } = {}): [string, unknown][] {
  const text = typeof valid === 'string' && valid.length > 1 ? valid : 'text';
  const middle = Math.ceil(text.length / 2);
  const wrongType =
    leaf.type === 'string' || leaf.type === 'enum' || leaf.type === 'literal'
      ? 12345
      : leaf.type === 'number'
        ? 'twelve'
        : 'text';
  const empty = leaf.type === 'array' ? [] : leaf.type === 'object' || leaf.type === 'record' ? {} : '';
  const all: [string, unknown][] = [
    ['missing', remove],
    ['null', null],
    ['of the wrong type', wrongType],
    ['empty', empty],
    ['10,000 characters', LONG_TEXT],
    ...UNICODE_EDGES.map(([name, edge]): [string, unknown] => [
      `with ${name}`,
      text.slice(0, middle) + edge + text.slice(middle),
    ]),
    ['an array where a value goes', [valid]],
    ['an object where a value goes', { value: valid }],
    ['nested 1,000 levels deep', deeplyNested(1_000)],
    ['a number too large to store', 1e300],
  ];
  if (!options.byLeaf) return all;
  return all.filter(([how]) => !sameClassAs(leaf, how));
}

/**
 * Ways of breaking a field that, for a field of this kind, are another way already sent: a text where
 * a number or a yes/no goes is of the wrong type however long or odd it is; a number where a text goes
 * is one, however large; an object where a single value goes is one, however deep (the body's depth
 * has cases of its own: `objects nested 10,000 deep`).
 */
function sameClassAs(leaf: Def, how: string): boolean {
  const scalar = leaf.type === 'number' || leaf.type === 'boolean';
  const text = leaf.type === 'string' || leaf.type === 'enum' || leaf.type === 'literal';
  if (scalar && (how === '10,000 characters' || how.startsWith('with '))) return true;
  if (text && how === 'a number too large to store') return true;
  return (scalar || text) && how === 'nested 1,000 levels deep';
}

export interface FuzzRequest {
  /** What the case is, for the failure message. */
  name: string;
  method: string;
  /** Path and query, already percent-encoded (or deliberately not). */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Statuses this case must answer; any 2xx/4xx when absent. */
  expect?: readonly number[];
}

/** Percent-encoding that also writes a lone surrogate (as invalid UTF-8), which encodeURIComponent refuses. */
function encodeLoosely(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return Array.from(text, (ch) => {
      const code = ch.charCodeAt(0);
      if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff) {
        return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
          .map((b) => `%${b.toString(16).toUpperCase()}`)
          .join('');
      }
      return encodeURIComponent(ch);
    }).join('');
  }
}

const queryString = (pairs: [string, string][]) =>
  pairs.length ? `?${pairs.map(([k, v]) => `${encodeLoosely(k)}=${encodeLoosely(v)}`).join('&')}` : '';

/** Path ids of every kind but the right one: unknown, random, malformed. */
function badIds(random: Random): [string, string][] {
  const uuid = `${random.hex(8)}-${random.hex(4)}-4${random.hex(3)}-a${random.hex(3)}-${random.hex(12)}`;
  return [
    ['a well-formed but unknown id', uuid],
    ['a random id', random.hex(1 + Math.floor(random.next() * 40))],
    ['a percent sign alone', '%'],
    ['a cut UTF-8 sequence', '%E2%82'],
    ['an encoded lone surrogate', '%ED%A0%80'],
    ['dot-dot', '..'],
    ['NUL', '%00'],
    ['an emoji', encodeURIComponent('🦄')],
    ['2,000 characters', 'x'.repeat(2_000)],
  ];
}

export interface RouteFuzzOptions {
  /** The fixture's value for each path parameter (`fillPath`), so body cases reach the handler. */
  fillPath: (template: string) => string;
  /** A valid access token for `user` routes. */
  token: string;
  /** Tokens that must be refused: garbled, expired, signed with another key… */
  badTokens: [string, string][];
  /** For `twilio` routes: a signature that is not Twilio's. */
  forgedSignature: string;
  random: Random;
  /** Ids for body fields that name an item (`userId`), so valid bodies name real ones. */
  idFor?: (key: string) => string | undefined;
}

/** Every request to send to one route. */
export function routeCases(route: HttpRouteEntry, options: RouteFuzzOptions): FuzzRequest[] {
  const { contract } = route;
  const { random } = options;
  const webhook = contract.auth === 'twilio';
  const path = options.fillPath(contract.path);
  const cases: FuzzRequest[] = [];
  const authHeaders = (): Record<string, string> =>
    contract.auth === 'user' || contract.auth === 'platformAdmin'
      ? { authorization: `Bearer ${options.token}` }
      : webhook
        ? { 'x-twilio-signature': options.forgedSignature }
        : {};
  // Webhooks without Twilio's signature are refused whatever they carry (forged: 403; bodies the
  // check cannot read: 413/415).
  const refused = webhook ? ([403, 404, 413, 415] as const) : undefined;
  const add = (c: Omit<FuzzRequest, 'method' | 'headers'> & { headers?: Record<string, string> }) =>
    cases.push({ method: contract.method, ...c, headers: { ...authHeaders(), ...c.headers }, expect: c.expect ?? refused });

  const hasBody = contract.method !== 'GET';
  const bodyType = webhook ? 'application/x-www-form-urlencoded' : 'application/json';
  const encodeBody = (value: unknown): string =>
    webhook
      ? new URLSearchParams(
          Object.entries(value as Record<string, unknown>).flatMap(([k, v]): [string, string][] =>
            // Forms have no arrays or objects: a repeated name, or a bracketed one, is how they are sent.
            Array.isArray(v)
              ? v.map((item) => [k, String(item)])
              : v !== null && typeof v === 'object'
                ? [[`${k}[a]`, JSON.stringify(v)]]
                : [[k, String(v)]],
          ),
        ).toString()
      : JSON.stringify(value);
  const validBody = () => (contract.body ? validValue(contract.body, random, '', options.idFor) : undefined);
  // A query as clients send it: optional parameters left out (each is then added, broken, on its own).
  const validQuery = () =>
    contract.query
      ? (validValue(contract.query, random, '', options.idFor, { requiredOnly: true }) as Record<string, unknown>)
      : {};
  const pairsOf = (query: Record<string, unknown>): [string, string][] => Object.entries(query).map(([k, v]) => [k, String(v)]);
  const request = (body: unknown, extra: Partial<FuzzRequest> & { name: string }) =>
    add({
      path: `${path}${queryString(pairsOf(validQuery()))}`,
      ...(hasBody && body !== undefined ? { body: encodeBody(body), headers: { 'content-type': bodyType } } : {}),
      ...extra,
    });

  request(validBody(), { name: 'valid' });

  if (contract.body) {
    const fields = fieldPaths(contract.body);
    if (webhook) {
      // An unsigned webhook is refused at the signature check, which reads the whole form before any
      // field means anything (functions/lib/define-webhook.ts): which field carries the broken value is
      // no class of its own, so each way of breaking one goes once, on a field the seed picks.
      const kinds = fieldMutations({ type: 'string' }, 'text').map(([how]) => how);
      for (const how of kinds) {
        const { path: field, leaf } = random.pick(fields);
        const [, value] = fieldMutations(leaf, fieldValue(validBody(), field)).find(([name]) => name === how) as [
          string,
          unknown,
        ];
        request(withField(validBody(), field, value), { name: `body.${field.join('.')} ${how}` });
      }
    } else {
      for (const { path: field, leaf } of fields) {
        for (const [how, value] of fieldMutations(leaf, fieldValue(validBody(), field), { byLeaf: true })) {
          request(withField(validBody(), field, value), { name: `body.${field.join('.')} ${how}` });
        }
      }
    }
  }
  if (hasBody) {
    const raw = (name: string, body: string | Buffer, contentType = bodyType) =>
      add({ name, path, body, headers: { 'content-type': contentType } });
    raw('malformed JSON (cut off)', '{"a": ');
    raw('malformed JSON (single quotes, trailing comma)', "{'a': 1,}");
    raw('a JSON array body', '[1,2]', 'application/json');
    raw('a JSON string body', '"text"', 'application/json');
    raw('a JSON null body', 'null', 'application/json');
    raw('arrays nested 10,000 deep', `${'['.repeat(10_000)}${']'.repeat(10_000)}`, 'application/json');
    raw('objects nested 10,000 deep', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`, 'application/json');
    raw('invalid UTF-8 bytes', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]));
    raw('a 200 KB body', encodeBody({ ...(validBody() as object), padding: 'x'.repeat(200 * 1024) }));
    raw('text/plain', encodeBody(validBody() ?? {}), 'text/plain');
    raw('application/xml', '<request><a>1</a></request>', 'application/xml');
    raw(
      'multipart/form-data',
      '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--',
      'multipart/form-data; boundary=b',
    );
    raw(
      'JSON labelled as a form',
      encodeBody(validBody() ?? {}),
      webhook ? 'application/json' : 'application/x-www-form-urlencoded',
    );
    raw('no content type', webhook ? 'a=1' : JSON.stringify(validBody() ?? {}), '');
  }

  if (contract.query) {
    const valid = validQuery();
    for (const { path: field, leaf } of fieldPaths(contract.query)) {
      const key = String(field[0]);
      const others = pairsOf(valid).filter(([k]) => k !== key);
      const value = String(valid[key] ?? validValue(unwrap(fieldSchema(contract.query, key)), random, key) ?? 'x');
      const variants: [string, [string, string][]][] = [
        ['missing', others],
        ['empty', [...others, [key, '']]],
        ['of the wrong type', [...others, [key, leaf.type === 'number' ? 'twelve' : '12345']]],
        ['10,000 characters', [...others, [key, LONG_TEXT]]],
        ...UNICODE_EDGES.map(([name, edge]): [string, [string, string][]] => [`with ${name}`, [...others, [key, value + edge]]]),
        ['repeated (an array)', [...others, [key, value], [key, value]]],
        ['as an object (key[a]=)', [...others, [`${key}[a]`, value]]],
      ];
      for (const [how, pairs] of variants) add({ name: `query.${key} ${how}`, path: `${path}${queryString(pairs)}` });
    }
  }

  const params = [...contract.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  for (const param of params) {
    for (const [how, id] of badIds(random)) {
      const broken = options.fillPath(contract.path.replace(`{${param}}`, id));
      add({
        name: `path {${param}}: ${how}`,
        path: `${broken}${queryString(pairsOf(validQuery()))}`,
        ...(hasBody ? { body: encodeBody(validBody() ?? {}), headers: { 'content-type': bodyType } } : {}),
        // A path no route matches gets the not-found handler's 404 (or 400 for broken encoding).
        expect: webhook ? [400, 403, 404, 413, 415] : undefined,
      });
    }
  }

  if (contract.auth === 'user' || contract.auth === 'platformAdmin') {
    const withToken = (name: string, authorization: string | undefined) =>
      add({
        name,
        path: `${path}${queryString(pairsOf(validQuery()))}`,
        ...(hasBody ? { body: encodeBody(validBody() ?? {}) } : {}),
        headers: { authorization: authorization ?? '', ...(hasBody ? { 'content-type': bodyType } : {}) },
        expect: [401],
      });
    withToken('no token', undefined);
    for (const [name, token] of options.badTokens) withToken(name, `Bearer ${token}`);
  }
  if (webhook) {
    add({
      name: 'no signature',
      path,
      body: encodeBody(validBody()),
      headers: { 'content-type': bodyType, 'x-twilio-signature': '' },
    });
  }
  return cases;
}

function fieldSchema(object: z.ZodMiniType, key: string): z.ZodMiniType {
  return defOf(unwrap(object)).shape?.[key] as z.ZodMiniType;
}

function fieldValue(value: unknown, path: (string | number)[]): unknown {
  let node = value as Record<string | number, unknown> | undefined;
  for (const step of path) node = node?.[step] as Record<string | number, unknown> | undefined;
  return node;
}

/** Texts no answer may show: stack traces, error class names, file paths, the store's or SDK's words. */
const INTERNALS =
  /\b(TypeError|RangeError|ReferenceError|SyntaxError|URIError|EvalError|ConditionalCheckFailed\w*|TransactionCanceled\w*|ValidationException|ResourceNotFound\w*|DynamoDB|undefined|NaN|\[object Object\])\b|\n\s*at |\bat \S+ \(|[\w/]+\.(ts|js|mjs):\d+|node_modules|\/work\//;

/** What is wrong with an answer, or undefined when it is one a client can handle. */
export function judge(
  request: FuzzRequest,
  answer: { status: number; contentType: string; text: string },
  contract: HttpContract,
): string | undefined {
  const { status, text } = answer;
  if (status >= 500) return `answered ${status}`;
  if (request.expect && !request.expect.includes(status)) return `answered ${status}, expected ${request.expect.join('/')}`;
  if (status < 200 || (status >= 300 && status < 400)) return `answered ${status}`;
  if (contract.auth === 'twilio' && status < 300) return `accepted a webhook that Twilio did not sign (${status})`;
  // A binary route answers bytes of a named type when it succeeds; its failures are envelopes.
  if (contract.binary && status < 300) {
    if (!answer.contentType || answer.contentType.startsWith('application/json'))
      return `answered ${answer.contentType || 'no content type'}, not bytes`;
    return undefined;
  }
  if (!answer.contentType.startsWith('application/json')) return `answered ${answer.contentType || 'no content type'}, not JSON`;
  let envelope: {
    success?: unknown;
    data?: unknown;
    message?: unknown;
    error?: { message?: unknown; code?: unknown; details?: unknown };
  };
  try {
    envelope = JSON.parse(text);
  } catch {
    return 'answered a body that is not JSON';
  }
  if (status < 300) {
    if (envelope.success !== true || !('data' in envelope)) return 'a 2xx without the success envelope';
  } else {
    const error = envelope.error;
    if (envelope.success !== false || typeof error?.message !== 'string' || !error.message || typeof error.code !== 'string') {
      return 'a 4xx without the error envelope';
    }
  }
  const shown = JSON.stringify([envelope.message, envelope.error]);
  const leak = INTERNALS.exec(shown);
  if (leak) return `its message shows "${leak[0].trim()}"`;
  return undefined;
}
