import { request } from 'node:http';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachLimited } from '../../functions/lib/concurrency';
import { httpRoutes } from '../../functions/routes';
import { newClientAddress, stack } from '../support/api';
import { type CompanyFixture, companyWithEverything, fillPath } from '../support/company-fixture';
import { type FuzzRequest, hashText, judge, routeCases, seededRandom } from '../support/contract-fuzz';

/**
 * Fuzzing from the contracts: every HTTP route of the route table gets requests generated from its
 * schemas (test/support/contract-fuzz.ts) — valid, every field broken every way, broken bodies, query
 * strings, path ids and tokens — and every answer must be a 2xx/4xx envelope whose message shows
 * nothing internal. Routes that name items get the ids of a company with one of everything, so valid
 * bodies reach the handlers. `FUZZ_SEED=<n>` replays a run.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
/** Requests in flight at once: enough to overlap waits, few enough for a 2-core machine shared with other files. */
const CONCURRENCY = 4;

let company: CompanyFixture;
let badTokens: [string, string][];
let sent = 0;
const started = Date.now();

beforeAll(async () => {
  console.log(`contract fuzz: seed ${SEED} (FUZZ_SEED=${SEED} replays this run)`);
  company = await companyWithEverything('Fuzz Co');
  badTokens = await tokensToRefuse(company);
}, 120_000);

afterAll(() => {
  console.log(`contract fuzz: ${sent} requests, ${((Date.now() - started) / 1000).toFixed(1)} s with the setup, seed ${SEED}`);
});

/** Access tokens the API must refuse: garbled, expired, signed with another key, unsigned. */
async function tokensToRefuse({ owner }: CompanyFixture): Promise<[string, string][]> {
  const claims = { cid: owner.company.id, adm: false, rol: owner.user.role, sid: 'fuzz-session' };
  const sign = (secret: string, expiresAt: number) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(owner.user.id)
      .setIssuer('switchboard')
      .setAudience('switchboard-app')
      .setIssuedAt(expiresAt - 900)
      .setExpirationTime(expiresAt)
      .sign(new TextEncoder().encode(secret));
  const now = Math.floor(Date.now() / 1000);
  const real = owner.tokens.accessToken;
  const [header, payload, signature] = real.split('.') as [string, string, string];
  const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
  return [
    ['a garbled token', `${real.slice(0, 40)}garbled${real.slice(47)}`],
    ['a token with a tampered signature', `${header}.${payload}.${signature.split('').reverse().join('')}`],
    ['an expired token', await sign(stack().env.JWT_SECRET, now - 60)],
    ['a token signed with another key', await sign('another key entirely, 48 characters of it....', now + 600)],
    ['an unsigned token (alg none)', unsigned],
  ];
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** Sends a case as it is (node:http: the path is not normalised), from a fresh address so no throttle carries over. */
function send(c: FuzzRequest): Promise<Answer> {
  const { hostname, port } = new URL(stack().urls.api);
  const headers: Record<string, string | number> = Object.fromEntries(Object.entries(c.headers).filter(([, v]) => v !== ''));
  // Node sends a DELETE's body neither chunked nor with a length unless told.
  if (c.body !== undefined) headers['content-length'] = Buffer.byteLength(c.body);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, path: c.path, method: c.method, headers, localAddress: newClientAddress() },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(c.body);
  });
}

const shorten = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text);

function describeRequest(c: FuzzRequest): string {
  const body = c.body === undefined ? '' : ` body ${shorten(JSON.stringify(c.body.toString()))}`;
  return `${c.method} ${shorten(c.path, 200)} headers ${JSON.stringify({ ...c.headers, authorization: c.headers.authorization ? '…' : undefined })}${body}`;
}

/**
 * Routes that remove what others use (the provider, the inbox, the agent…) go after the rest, those
 * with more ids first (a member before its inbox), and signing out everywhere (which ends the session
 * realtime tickets need) last.
 */
const order = ({ contract }: (typeof httpRoutes)[number]) =>
  contract.path.endsWith('/logout-all') ? 100 : contract.method === 'DELETE' ? 10 - (contract.path.match(/\{/g) ?? []).length : 0;
const routes = [...httpRoutes].sort((x, y) => order(x) - order(y));
/**
 * Every route that needs a token gets none and one refused token, the kinds taken in turn: all five are
 * refused by the one check every route's handler runs (functions/lib/define-handler.ts), so each kind
 * is proven on a dozen routes and each route proven to check.
 */
const tokenRoutes = routes.filter(({ contract }) => contract.auth === 'user' || contract.auth === 'platformAdmin');
const badTokensFor = (route: (typeof routes)[number]) => {
  const turn = tokenRoutes.indexOf(route);
  return turn < 0 ? [] : [badTokens[turn % badTokens.length] as [string, string]];
};

describe('every route, fuzzed from its contract', () => {
  it('covers every HTTP route of the route table, and sends every kind of refused token', () => {
    expect(new Set(routes.map((r) => `${r.contract.method} ${r.contract.path}`)).size).toBe(httpRoutes.length);
    expect(new Set(tokenRoutes.flatMap((r) => badTokensFor(r).map(([kind]) => kind)))).toEqual(
      new Set(badTokens.map(([kind]) => kind)),
    );
  });

  for (const route of routes) {
    const name = `${route.contract.method} ${route.contract.path}`;
    it(`${name} answers every request with a 2xx/4xx envelope`, async () => {
      const cases = routeCases(route, {
        fillPath: (template) => fillPath(template, company.pathIds),
        token: company.owner.tokens.accessToken,
        badTokens: badTokensFor(route),
        forgedSignature: 'c2lnbmVkIGJ5IG5vYm9keSBpbiBwYXJ0aWN1bGFy',
        random: seededRandom(SEED ^ hashText(name)),
        idFor: (key) => ({ userId: company.agent.user.id, routingTargetId: company.inboxId })[key],
      });
      const failures: string[] = [];
      await forEachLimited(cases, CONCURRENCY, async (c) => {
        const answer = await send(c);
        const problem = judge(c, answer, route.contract);
        if (problem) {
          failures.push(
            `${name} — ${c.name}: ${problem}\n    request: ${describeRequest(c)}\n    answer: ${shorten(answer.text)}`,
          );
        }
      });
      sent += cases.length;
      expect(failures, `seed ${SEED}; ${failures.length} of ${cases.length} cases failed`).toEqual([]);
    });
  }
});
