/**
 * `npm run bench` (contacts): a contact search must cost the same whatever the size of the contact
 * book. Starts a local stack (DynamoDB Local and the gateway, in-memory), signs up two companies,
 * stores 10 contacts in one and 10,000 in the other (BatchWrite of the items the product stores: the
 * contact, its number's item and its search entries), each with the same Grace Hopper, then asks both
 * the same searches (`GET /api/v1/contacts?search=…`: a name, a number as typed, an e-mail, and the
 * book's first 10) through the gateway, alternating between the two, and compares the median
 * latencies. Writes bench/results/contacts.json; exits 1 when a ratio is over the goal.
 * `BENCH_RUNS=30 npm run bench` for a quick run.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { ContactRecord } from '../functions/conversations/records';
import { keys } from '../functions/lib/table';
import type { Contact } from '../shared/contract/contacts';
import { contactSearchEntries, putItems } from '../test/support/conversations';
import { startTestStack } from '../test/support/test-stack';
import { compareSizes, printComparison } from './lib/compare-sizes';
import { benchTable, localApi } from './lib/local-api';
import { resultsDir } from './lib/paths';
import { round, writeJson } from './lib/report';

const SMALL = 10;
const LARGE = 10_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARM_UP = 20;
const GOAL_RATIO = 1.5;

if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`BENCH_RUNS must be a positive integer, got ${process.env.BENCH_RUNS}`);

const FIRST = [
  'Ada',
  'Alan',
  'Barbara',
  'Claude',
  'Donald',
  'Edsger',
  'Frances',
  'John',
  'Katherine',
  'Linus',
  'Margaret',
  'Niklaus',
];
const LAST = [
  'Lovelace',
  'Turing',
  'Liskov',
  'Shannon',
  'Knuth',
  'Dijkstra',
  'Allen',
  'McCarthy',
  'Johnson',
  'Torvalds',
  'Wirth',
];

const started = performance.now();
console.log(`Starting a local stack; ${SMALL} and ${LARGE.toLocaleString('en-US')} contacts, ${RUNS} searches each...`);
const stack = await startTestStack({ web: false, label: 'bench' });
const { urls, env } = stack.provided;

const { call, signUp } = localApi(urls);

const table = benchTable(env);

/** Grace Hopper plus `count - 1` others with names, numbers and e-mails of their own. */
async function companyWith(count: number) {
  const account = await signUp(String(count));
  const at = new Date().toISOString();
  const contacts: ContactRecord[] = Array.from({ length: count }, (_, i) => {
    const grace = i === 0;
    const first = FIRST[i % FIRST.length] as string;
    const last = LAST[Math.floor(i / FIRST.length) % LAST.length] as string;
    return {
      id: randomUUID(),
      companyId: account.companyId,
      name: grace ? 'Grace Hopper' : `${first} ${last} ${i}`,
      phoneNumber: grace ? '+12025550143' : `+1312${String(i).padStart(7, '0')}`,
      email: grace ? 'grace@navy.example' : `${first.toLowerCase()}.${i}@example.test`,
      notes: null,
      callCount: 0,
      conversationCount: 0,
      lastContactAt: null,
      lastConversationId: null,
      createdAt: at,
    };
  });
  const items = contacts.flatMap((contact) => [
    { ...keys.contact(contact.companyId, contact.id), entity: 'CONTACT', ...contact },
    { ...keys.contactPhone(contact.companyId, contact.phoneNumber), entity: 'CONTACT_PHONE', contactId: contact.id },
    ...contactSearchEntries(contact),
  ]);
  const t0 = performance.now();
  await putItems(table, items);
  console.log(
    `  stored ${count.toLocaleString('en-US')} contacts (${items.length.toLocaleString('en-US')} items) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  return account;
}

let pass = false;
try {
  const small = await companyWith(SMALL);
  const large = await companyWith(LARGE);

  // Each search finds the same contacts in both books: the same work on a book a thousand times the size.
  const queries = [
    { name: 'search a name', search: 'grace hop', expected: 1 },
    { name: 'search a number as typed', search: '(202) 555-0143', expected: 1 },
    { name: 'search an e-mail', search: 'GRACE@NAVY', expected: 1 },
    { name: 'the book, first 10', search: '', expected: 10 },
  ];
  const searchOnce = async (account: typeof small, search: string, expected: number) => {
    const path = `/api/v1/contacts?search=${encodeURIComponent(search)}&limit=${expected === 10 ? 10 : 100}`;
    const t0 = performance.now();
    const { contacts } = await call<{ contacts: Contact[] }>(path, { method: 'GET', token: account.accessToken });
    const ms = performance.now() - t0;
    if (contacts.length !== expected) throw new Error(`${path}: ${contacts.length} contacts`);
    return ms;
  };

  const results = [];
  for (const query of queries) {
    const measured = await compareSizes(
      { warmUp: WARM_UP, runs: RUNS },
      () => searchOnce(small, query.search, query.expected),
      () => searchOnce(large, query.search, query.expected),
    );
    results.push({
      query: query.name,
      search: query.search,
      small: { contacts: SMALL, ...measured.small },
      large: { contacts: LARGE, ...measured.large },
      ratio: round(measured.ratio, 2),
      pass: measured.ratio <= GOAL_RATIO,
    });
  }
  pass = results.every((r) => r.pass);

  printComparison('GET /api/v1/contacts', { small: SMALL, large: LARGE }, results);
  console.log(`\nGoal: median latency with ${LARGE.toLocaleString('en-US')} contacts <= ${GOAL_RATIO} x with ${SMALL}.`);
  await writeJson(join(resultsDir, 'contacts.json'), {
    date: new Date().toISOString(),
    node: process.version,
    runs: RUNS,
    warmUp: WARM_UP,
    measured: 'GET /api/v1/contacts through the local gateway against DynamoDB Local, request to response',
    goalRatio: GOAL_RATIO,
    results,
    pass,
  });
  console.log(`Wrote bench/results/contacts.json in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
} finally {
  await stack.stop();
}
process.exit(pass ? 0 : 1);
