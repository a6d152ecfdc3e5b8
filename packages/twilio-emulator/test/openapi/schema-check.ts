/**
 * A small checker for the part of OpenAPI 3.0 that Twilio's description uses for its answers: `$ref`
 * (to a component schema), `type`, `nullable`, `enum`, `pattern`, `minLength`/`maxLength`, `properties`
 * (every documented property present, no other), `items`, and the formats `date-time-rfc-2822` (as
 * API 2010-04-01 writes dates: `Sat, 21 Nov 2026 10:00:00 +0000`), `date-time` (ISO 8601, as the v1
 * APIs write them: `2026-11-21T10:00:00Z`) and `uri-map` (an object of URIs: relative in 2010-04-01,
 * absolute in v1).
 */
import api2010 from './api_v2010.subset.json' with { type: 'json' };
import messagingV1 from './messaging_v1.subset.json' with { type: 'json' };

export interface Schema {
  $ref?: string;
  type?: string;
  nullable?: boolean;
  enum?: string[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  properties?: Record<string, Schema>;
  items?: Schema;
}

export interface Operation {
  operationId: string;
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

interface Subset {
  'x-source': { repository: string; path: string; commit: string; date: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** The subsets of both descriptions as one: their paths and schema names do not overlap. */
const subsets = [api2010, messagingV1] as unknown as Subset[];
export const spec = {
  sources: subsets.map((s) => s['x-source']),
  paths: Object.assign({}, ...subsets.map((s) => s.paths)) as Subset['paths'],
  components: { schemas: Object.assign({}, ...subsets.map((s) => s.components.schemas)) as Subset['components']['schemas'] },
};

/**
 * Twilio's own examples answer `""`, not null, for a number's application SIDs when none is set
 * (https://www.twilio.com/docs/phone-numbers/api/incomingphonenumber-resource), though the pattern
 * documents only a SID: the emulator answers as Twilio does.
 */
export const EMPTY_WHEN_UNSET = new Set(['voice_application_sid', 'sms_application_sid']);

/**
 * A conference's `reason_conference_ended` is an enum without `nullable`, though the description says
 * "When a conference is in progress, will be `null`" (and its examples answer so): the emulator
 * answers null while the conference goes on, as Twilio does.
 */
export const NULL_WHILE_UNDER_WAY = new Set(['reason_conference_ended']);

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const RFC_2822 =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) ([+-]\d{4})$/;

/** Whether a date is RFC 2822 as Twilio writes it, naming a real moment and its right weekday. */
export function isRfc2822(value: string): boolean {
  const match = RFC_2822.exec(value);
  if (!match) return false;
  const time = Date.parse(value);
  if (Number.isNaN(time)) return false;
  const offset = match[8] ?? '+0000';
  const minutes = (offset[0] === '-' ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(3)));
  const local = new Date(time + minutes * 60_000);
  return WEEKDAYS[local.getUTCDay()] === match[1] && String(local.getUTCDate()).padStart(2, '0') === match[2];
}

/** ISO 8601 in UTC to the second, as Twilio's v1 APIs write dates, naming a real moment. */
export function isIso8601(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/.exec(value);
  if (!match) return false;
  const time = new Date(value);
  return !Number.isNaN(time.getTime()) && time.toISOString().replace('.000Z', 'Z') === value;
}

function isAbsoluteUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

export function resolve(schema: Schema): Schema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  const target = spec.components.schemas[name];
  if (!target) throw new Error(`${schema.$ref} is not in the subset`);
  return resolve(target);
}

function typeOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}

/** Every way `value` departs from `schema`, as `path: problem` lines; none when it conforms. */
export function conformanceProblems(given: Schema, value: unknown, path = '', name = ''): string[] {
  const schema = resolve(given);
  const at = path || '(answer)';
  if (value === null) return schema.nullable || NULL_WHILE_UNDER_WAY.has(name) ? [] : [`${at}: null, but not nullable`];
  if (value === undefined) return [`${at}: missing`];

  const actual = typeOf(value);
  const expected = schema.type;
  if (expected && !(actual === expected || (expected === 'number' && actual === 'integer')))
    return [`${at}: ${actual} ${JSON.stringify(value)}, documented as ${expected}`];

  const problems: string[] = [];
  if (typeof value === 'string') {
    if (schema.enum && !schema.enum.includes(value)) problems.push(`${at}: "${value}" is not one of ${schema.enum.join(', ')}`);
    const emptyAllowed = value === '' && EMPTY_WHEN_UNSET.has(name);
    if (!emptyAllowed) {
      if (schema.pattern && !new RegExp(schema.pattern).test(value))
        problems.push(`${at}: "${value}" does not match ${schema.pattern}`);
      if (schema.minLength !== undefined && value.length < schema.minLength)
        problems.push(`${at}: shorter than ${schema.minLength}`);
      if (schema.maxLength !== undefined && value.length > schema.maxLength)
        problems.push(`${at}: longer than ${schema.maxLength}`);
    }
    if (schema.format === 'date-time-rfc-2822' && !isRfc2822(value)) problems.push(`${at}: "${value}" is not an RFC 2822 date`);
    if (schema.format === 'date-time' && !isIso8601(value)) problems.push(`${at}: "${value}" is not an ISO 8601 date`);
  }
  if (actual === 'object' && value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if (schema.properties) {
      for (const [property, propertySchema] of Object.entries(schema.properties)) {
        const inner = `${path}${path ? '.' : ''}${property}`;
        if (!(property in object)) problems.push(`${inner}: documented, but missing`);
        else problems.push(...conformanceProblems(propertySchema, object[property], inner, property));
      }
      for (const property of Object.keys(object))
        if (!(property in schema.properties)) problems.push(`${path}${path ? '.' : ''}${property}: not documented`);
    } else if (schema.format === 'uri-map') {
      for (const [key, uri] of Object.entries(object))
        if (typeof uri !== 'string' || !(uri.startsWith('/') || isAbsoluteUrl(uri)))
          problems.push(`${at}.${key}: ${JSON.stringify(uri)} is not a URI`);
    }
  }
  if (Array.isArray(value) && schema.items) {
    const items = schema.items;
    value.forEach((item, index) => {
      problems.push(...conformanceProblems(items, item, `${path}[${index}]`));
    });
  }
  return problems;
}

/**
 * The documented answer of an operation: its status and, unless it has no body, its schema. Where it
 * documents more than one (PhoneNumbers create: 201, and 200 from a downstream), the one `answered`
 * names; else the first.
 */
export function documentedAnswer(
  path: string,
  method: string,
  answered?: number,
): { status: number; schema: Schema | undefined } {
  const operation = spec.paths[path]?.[method];
  if (!operation) throw new Error(`${method.toUpperCase()} ${path} is not in the subset`);
  const responses = Object.entries(operation.responses);
  const [status, response] = responses.find(([code]) => Number(code) === answered) ?? responses[0] ?? [];
  if (!status || !response) throw new Error(`${operation.operationId} documents no answer`);
  return { status: Number(status), schema: response.content?.['application/json']?.schema };
}

/** How many properties the instance schemas document (nested ones included): the test's reach. */
export function documentedPropertyCount(schemaName: string): number {
  const count = (schema: Schema): number =>
    Object.values(resolve(schema).properties ?? {}).reduce((sum, property) => sum + 1 + count(property), 0);
  const schema = spec.components.schemas[schemaName];
  if (!schema) throw new Error(`${schemaName} is not in the subset`);
  return count(schema);
}
