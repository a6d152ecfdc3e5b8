/**
 * Writes api_v2010.subset.json and messaging_v1.subset.json: the operations of Twilio's API 2010-04-01
 * and of its Messaging API v1 the emulator serves, and the schemas they refer to, cut verbatim from
 * Twilio's OpenAPI descriptions (twilio/twilio-oai, spec/json/twilio_api_v2010.json and
 * twilio_messaging_v1.json). Run it again when the emulator serves more, or to follow a newer
 * description: `npx tsx packages/twilio-emulator/test/openapi/extract-subset.ts <twilio_api_v2010.json> <commit> <date>`
 * (likewise with twilio_messaging_v1.json), then `npx biome format --write` on the file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** The served operations of API 2010-04-01: path → methods. */
export const SERVED: Record<string, string[]> = {
  '/2010-04-01/Accounts/{Sid}.json': ['get'],
  '/2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers.json': ['get'],
  '/2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers/{Sid}.json': ['get', 'post'],
  '/2010-04-01/Accounts/{AccountSid}/Applications.json': ['get', 'post'],
  '/2010-04-01/Accounts/{AccountSid}/Applications/{Sid}.json': ['get', 'post', 'delete'],
  '/2010-04-01/Accounts/{AccountSid}/Keys.json': ['get', 'post'],
  '/2010-04-01/Accounts/{AccountSid}/Keys/{Sid}.json': ['get', 'post', 'delete'],
  '/2010-04-01/Accounts/{AccountSid}/Messages.json': ['get', 'post'],
  '/2010-04-01/Accounts/{AccountSid}/Messages/{Sid}.json': ['get'],
  '/2010-04-01/Accounts/{AccountSid}/Messages/{MessageSid}/Media.json': ['get'],
  '/2010-04-01/Accounts/{AccountSid}/Messages/{MessageSid}/Media/{Sid}.json': ['get'],
  '/2010-04-01/Accounts/{AccountSid}/Calls.json': ['get'],
  '/2010-04-01/Accounts/{AccountSid}/Calls/{Sid}.json': ['get', 'post'],
  '/2010-04-01/Accounts/{AccountSid}/Calls/{CallSid}/Recordings.json': ['get', 'post'],
  '/2010-04-01/Accounts/{AccountSid}/Calls/{CallSid}/Recordings/{Sid}.json': ['get', 'post', 'delete'],
  '/2010-04-01/Accounts/{AccountSid}/Recordings.json': ['get'],
  '/2010-04-01/Accounts/{AccountSid}/Recordings/{Sid}.json': ['get'],
  '/2010-04-01/Accounts/{AccountSid}/Conferences.json': ['get'],
  '/2010-04-01/Accounts/{AccountSid}/Conferences/{Sid}.json': ['get', 'post'],
  '/2010-04-01/Accounts/{AccountSid}/Conferences/{ConferenceSid}/Participants.json': ['get', 'post'],
  '/2010-04-01/Accounts/{AccountSid}/Conferences/{ConferenceSid}/Participants/{CallSid}.json': ['get', 'post', 'delete'],
};

/** The served operations of the Messaging API v1 (messaging.twilio.com). */
export const SERVED_MESSAGING_V1: Record<string, string[]> = {
  '/v1/Services': ['get', 'post'],
  '/v1/Services/{Sid}': ['get', 'post', 'delete'],
  '/v1/Services/{ServiceSid}/PhoneNumbers': ['get', 'post'],
  '/v1/Services/{ServiceSid}/PhoneNumbers/{Sid}': ['get', 'delete'],
};

/** Each description the emulator follows: the subset file it gives, and what is served of it. */
const DESCRIPTIONS: Record<string, { subset: string; served: Record<string, string[]> }> = {
  'twilio_api_v2010.json': { subset: 'api_v2010.subset.json', served: SERVED },
  'twilio_messaging_v1.json': { subset: 'messaging_v1.subset.json', served: SERVED_MESSAGING_V1 },
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function refsIn(value: Json, found: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') found.add(item.replace('#/components/schemas/', ''));
      else refsIn(item, found);
    }
}

function main([source, commit, date]: string[]) {
  const description = source && DESCRIPTIONS[basename(source)];
  if (!source || !description || !commit || !date)
    throw new Error(`usage: extract-subset.ts <${Object.keys(DESCRIPTIONS).join('|')}> <commit> <date>`);
  const spec = JSON.parse(readFileSync(source, 'utf8'));
  const paths: Record<string, Record<string, Json>> = {};
  for (const [path, methods] of Object.entries(description.served)) {
    const item = spec.paths[path];
    if (!item) throw new Error(`${path} is not in the description`);
    paths[path] = Object.fromEntries(methods.map((method) => [method, item[method]]));
  }
  const names = new Set<string>();
  refsIn(paths as Json, names);
  // The schemas a schema refers to (its enums), until nothing new turns up.
  for (let size = -1; size !== names.size; ) {
    size = names.size;
    for (const name of [...names]) refsIn(spec.components.schemas[name], names);
  }
  const schemas = Object.fromEntries([...names].sort().map((name) => [name, spec.components.schemas[name]]));
  const subset = {
    'x-source': {
      repository: 'https://github.com/twilio/twilio-oai',
      path: `spec/json/${basename(source)}`,
      commit,
      date,
      note: 'Only the operations the emulator serves and the schemas they refer to, verbatim.',
    },
    openapi: spec.openapi,
    info: { title: spec.info.title, version: spec.info.version },
    paths,
    components: { schemas },
  };
  writeFileSync(join(import.meta.dirname, description.subset), `${JSON.stringify(subset, null, 2)}\n`);
}

if (process.argv[1] === import.meta.filename) main(process.argv.slice(2));
