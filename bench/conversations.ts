/**
 * `npm run bench` (fourth part): the first page of the conversation list must cost the same whatever
 * the company's size. Starts a local stack (DynamoDB Local and the gateway, in-memory), signs up two
 * companies, stores 10 conversations in one and 10,000 in the other (BatchWrite, the items the
 * product stores), then asks each for its first page (`GET /api/v1/conversations`, the default: both
 * statuses, 20 a page; and pages of 10, the same work in both; and the team inbox's assignee filters,
 * a third of the conversations each the caller's, a colleague's and nobody's, where "both statuses"
 * reads two index partitions side by side) through the gateway, alternating between the two, and
 * compares the median latencies. Writes bench/results/conversations.json; exits 1 when a ratio is over
 * the goal. `BENCH_RUNS=30 npm run bench` for a quick run.
 *
 * Then an agent's first page (docs/product.md: Who sees what): two more companies of 10 and 10,000
 * conversations spread over 5 numbers, each routed to one of 5 inboxes, the agent a member of 2: their
 * list merges the partitions of their 2 numbers, their own and their mention grants.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../functions/lib/table';
import type { ConversationPage } from '../shared/contract/conversations';
import { listConversations } from '../shared/contract/endpoints/conversations';
import { addInboxMember, createInbox } from '../shared/contract/endpoints/settings';
import { acceptInvitation, createInvitation } from '../shared/contract/endpoints/team';
import { fillPath } from '../shared/contract/route';
import { type ConversationSeed, seedConversations } from '../test/support/conversations';
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
/** Roughly how a working company's conversations split: most closed, some open. */
const OPEN_SHARE = 0.3;

if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`BENCH_RUNS must be a positive integer, got ${process.env.BENCH_RUNS}`);

const started = performance.now();
console.log(`Starting a local stack; ${SMALL} and ${LARGE.toLocaleString('en-US')} conversations, ${RUNS} pages each...`);
const stack = await startTestStack({ web: false, label: 'bench' });
const { urls, env } = stack.provided;

const { call, signUp, mailedToken } = localApi(urls);

const table = benchTable(env);

/**
 * A company with `count` conversations a minute apart on one SMS channel, OPEN_SHARE of them open, in
 * turn the caller's, a colleague's and unassigned (the list does not read the members, so the
 * colleague is an id only).
 */
async function companyWith(count: number) {
  const account = await signUp(String(count));
  // The list reads no channel item: the channel's id and number are what the conversations carry.
  const channel = { id: randomUUID(), identifier: '+14155550101' };
  const assignees = [{ id: account.userId, name: 'Bench User' }, { id: randomUUID(), name: 'Colleague' }, null];
  const start = Date.now() - count * 60_000;
  const seeds: ConversationSeed[] = Array.from({ length: count }, (_, i) => ({
    at: new Date(start + i * 60_000),
    status: i % 10 < OPEN_SHARE * 10 ? 'OPEN' : 'CLOSED',
    contactName: i % 2 ? `Contact ${i}` : '',
    assignee: assignees[i % assignees.length],
  }));
  const t0 = performance.now();
  await seedConversations(table, account.companyId, channel, seeds);
  console.log(`  stored ${count.toLocaleString('en-US')} conversations in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { ...account, seeds };
}

/** The inboxes and numbers of an agent's company, and the inboxes the agent belongs to. */
const INBOXES = 5;
const AGENT_INBOXES = 2;

/**
 * A company with `count` conversations a minute apart over INBOXES numbers, each routed to its own
 * inbox, OPEN_SHARE of them open, in turn the agent's (on their numbers), a colleague's and
 * unassigned; and its agent, invited and a member of AGENT_INBOXES of them.
 */
async function agentCompanyWith(count: number) {
  const owner = await signUp(`agents-${count}`);
  const email = `bench-agent-${randomUUID().slice(0, 8)}@example.test`;
  await call(createInvitation.path, { token: owner.accessToken, body: { email, role: 'AGENT' } });
  const accepted = await call<{ user: { id: string }; tokens: { accessToken: string } }>(acceptInvitation.path, {
    body: {
      token: await mailedToken(email, /accept-invite[?#]token=([\w-]+)/),
      name: 'Bench Agent',
      password: 'bench password 1',
    },
  });
  const agent = { ...owner, userId: accepted.user.id, accessToken: accepted.tokens.accessToken };
  const inboxes: string[] = [];
  for (let i = 0; i < INBOXES; i++) {
    const { inbox } = await call<{ inbox: { id: string } }>(createInbox.path, {
      token: owner.accessToken,
      body: { name: `Inbox ${i}` },
    });
    inboxes.push(inbox.id);
    if (i < AGENT_INBOXES) {
      await call(fillPath(addInboxMember.path, { id: inbox.id }), { token: owner.accessToken, body: { userId: agent.userId } });
    }
  }
  // The numbers as import stores them, each routed to its inbox: the list reads their routing only.
  const channels = inboxes.map((inboxId, i) => ({ id: randomUUID(), identifier: `+1415555020${i}`, inboxId }));
  for (const channel of channels) {
    await table.client.send(
      new PutCommand({
        TableName: table.tableName,
        Item: {
          ...keys.channel(owner.companyId, channel.id),
          entity: 'CHANNEL',
          id: channel.id,
          companyId: owner.companyId,
          type: 'PHONE',
          identifier: channel.identifier,
          status: 'ACTIVE',
          capabilities: { voice: false, sms: true, mms: false },
          enabled: { voice: false, sms: true },
          providerId: null,
          numberSid: null,
          previousUrls: {},
          routingType: 'INBOX',
          routingTargetId: channel.inboxId,
          createdAt: new Date().toISOString(),
        },
      }),
    );
  }
  const start = Date.now() - count * 60_000;
  const colleague = { id: randomUUID(), name: 'Colleague' };
  const t0 = performance.now();
  const perChannel = Math.ceil(count / INBOXES);
  const seeds: (ConversationSeed & { channel: number })[] = [];
  for (const [c, channel] of channels.entries()) {
    const own = Array.from(
      { length: Math.min(perChannel, count - c * perChannel) },
      (_, j): ConversationSeed & { channel: number } => {
        const i = c + j * INBOXES;
        const turn = i % 3;
        return {
          channel: c,
          at: new Date(start + i * 60_000),
          status: i % 10 < OPEN_SHARE * 10 ? 'OPEN' : 'CLOSED',
          contactName: i % 2 ? `Contact ${i}` : '',
          // The agent is assigned only what they see (an assignee must: docs/product.md: Who sees what).
          assignee: turn === 0 && c < AGENT_INBOXES ? { id: agent.userId, name: 'Bench Agent' } : turn === 1 ? colleague : null,
        };
      },
    );
    await seedConversations(table, owner.companyId, channel, own, c * perChannel);
    seeds.push(...own);
  }
  console.log(
    `  stored ${count.toLocaleString('en-US')} conversations over ${INBOXES} inboxes in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  return { ...agent, seeds };
}

let pass = false;
try {
  const small = await companyWith(SMALL);
  const large = await companyWith(LARGE);

  // The default page holds 10 conversations in the small company and 20 in the large one; a page of
  // 10 in both compares the same work on a company a thousand times the size.
  const anyone = () => true;
  const mine = (account: typeof small) => (seed: ConversationSeed) => seed.assignee?.id === account.userId;
  const queries: {
    name: string;
    path: string;
    limit: number;
    matches: (account: typeof small) => (seed: ConversationSeed) => boolean;
  }[] = [
    { name: 'GET /api/v1/conversations', path: '/api/v1/conversations', limit: 20, matches: () => anyone },
    { name: '… ?limit=10 (equal pages)', path: '/api/v1/conversations?limit=10', limit: 10, matches: () => anyone },
    // Both statuses of one assignee merge two partitions; one status is one Query.
    { name: '… ?assignee=me', path: '/api/v1/conversations?assignee=me', limit: 20, matches: mine },
    {
      name: '… ?assignee=me&limit=3 (equal pages)',
      path: '/api/v1/conversations?assignee=me&limit=3',
      limit: 3,
      matches: mine,
    },
    {
      name: '… ?assignee=unassigned&limit=3 (equal pages)',
      path: '/api/v1/conversations?assignee=unassigned&limit=3',
      limit: 3,
      matches: () => (seed) => !seed.assignee,
    },
    {
      name: '… ?assignee=me&status=CLOSED&limit=3 (equal pages)',
      path: '/api/v1/conversations?assignee=me&status=CLOSED&limit=3',
      limit: 3,
      matches: (account) => (seed) => mine(account)(seed) && seed.status === 'CLOSED',
    },
  ];
  /** Milliseconds for one first page, checked to be a full page of the company's own conversations. */
  const firstPage = async (account: typeof small, path: string, expected: number) => {
    const t0 = performance.now();
    const page = await call<ConversationPage>(path, { method: 'GET', token: account.accessToken });
    const ms = performance.now() - t0;
    if (page.conversations.length !== expected) throw new Error(`${path}: ${page.conversations.length} conversations`);
    return ms;
  };

  const results = [];
  for (const query of queries) {
    const pageOf = (account: typeof small) => Math.min(query.limit, account.seeds.filter(query.matches(account)).length);
    const measured = await compareSizes(
      { warmUp: WARM_UP, runs: RUNS },
      () => firstPage(small, query.path, pageOf(small)),
      () => firstPage(large, query.path, pageOf(large)),
    );
    results.push({
      query: query.name,
      path: query.path,
      small: { conversations: SMALL, ...measured.small },
      large: { conversations: LARGE, ...measured.large },
      ratio: round(measured.ratio, 2),
      pass: measured.ratio <= GOAL_RATIO,
    });
  }
  // An agent's view: the conversations of their AGENT_INBOXES inboxes' numbers.
  const agentSmall = await agentCompanyWith(SMALL);
  const agentLarge = await agentCompanyWith(LARGE);
  const theirs = (account: typeof agentSmall) => account.seeds.filter((seed) => seed.channel < AGENT_INBOXES).length;
  for (const limit of [20, 3]) {
    const path = `${listConversations.path}?limit=${limit}`;
    const measured = await compareSizes(
      { warmUp: WARM_UP, runs: RUNS },
      () => firstPage(agentSmall, path, Math.min(limit, theirs(agentSmall))),
      () => firstPage(agentLarge, path, Math.min(limit, theirs(agentLarge))),
    );
    results.push({
      query: `an agent in ${AGENT_INBOXES} of ${INBOXES} inboxes, ?limit=${limit}${limit === 3 ? ' (equal pages)' : ''}`,
      path,
      small: { conversations: SMALL, ...measured.small },
      large: { conversations: LARGE, ...measured.large },
      ratio: round(measured.ratio, 2),
      pass: measured.ratio <= GOAL_RATIO,
    });
  }
  pass = results.every((r) => r.pass);

  printComparison('first page', { small: SMALL, large: LARGE }, results);
  console.log(`\nGoal: median latency with ${LARGE.toLocaleString('en-US')} conversations <= ${GOAL_RATIO} x with ${SMALL}.`);
  await writeJson(join(resultsDir, 'conversations.json'), {
    date: new Date().toISOString(),
    node: process.version,
    runs: RUNS,
    warmUp: WARM_UP,
    openShare: OPEN_SHARE,
    measured:
      'GET /api/v1/conversations first page (with and without the assignee filter, and an agent who sees 2 of 5 inboxes) through the local gateway against DynamoDB Local, request to response',
    goalRatio: GOAL_RATIO,
    results,
    pass,
  });
  console.log(`Wrote bench/results/conversations.json in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
} finally {
  await stack.stop();
}
process.exit(pass ? 0 : 1);
