import { beforeAll, describe, expect, it } from 'vitest';
import { httpRoutes } from '../../functions/routes';
import { api, callRoute, stack } from '../support/api';
import { type CompanyFixture, companyItems, companyWithEverything, fillPath, pathIdKeys } from '../support/company-fixture';
import { hashText, seededRandom, validValue } from '../support/contract-fuzz';
import { endpoints } from '../support/endpoints';
import { postWebhook } from '../support/sms';

/**
 * The tenant probe over the whole route table: company B's owner tries every route that names an
 * item in its path with company A's ids (alone, and mixed with B's own) and gets 404 — Twilio's
 * webhooks, signed with B's auth token, 403 — and A's items in the table are exactly as before. A new
 * route is probed as soon as it is in the table; one with a path parameter nobody taught the fixture
 * fails until it is taught. B's lists show nothing of A's.
 */
let a: CompanyFixture;
let b: CompanyFixture;

beforeAll(async () => {
  [a, b] = await Promise.all([companyWithEverything('Company A'), companyWithEverything('Company B')]);
}, 120_000);

const snapshotOfA = () => companyItems(a.owner.company.id, [a.conversationId]);

/** Every way to fill a path's ids with at least one of A's and the rest B's. */
function mixedIds(template: string): Record<string, string>[] {
  const keys = pathIdKeys(template);
  const mixes: Record<string, string>[] = [];
  for (let mask = 1; mask < 2 ** keys.length; mask++) {
    const ids = { ...b.pathIds };
    keys.forEach((key, i) => {
      if (mask & (1 << i)) ids[key] = a.pathIds[key] as string;
    });
    mixes.push(ids);
  }
  return mixes;
}

describe("company B's owner with company A's ids", () => {
  const routes = httpRoutes.filter((r) => r.contract.path.includes('{'));

  it('covers every route with an id in its path', () => {
    expect(routes.length).toBeGreaterThan(15);
  });

  // A webhook signed with B's auth token is refused (403); so is a platform administrator's route
  // (admin/companies/{id}) for a company's owner, whichever company it names: the answer tells nothing of A.
  const refusedWith = (auth: string) => (auth === 'twilio' ? 403 : auth === 'platformAdmin' ? 403 : 404);

  for (const { contract } of routes) {
    const expected = refusedWith(contract.auth);
    it(`${contract.method} ${contract.path} → ${expected}, nothing of A changed`, async () => {
      // Fails here, naming the parameter, for a route whose ids nobody taught the fixture.
      fillPath(contract.path, a.pathIds);
      const before = await snapshotOfA();
      const random = seededRandom(hashText(contract.path));
      // Ids in the body are A's too (a member to add, a routing target).
      const idsOfA: Record<string, string> = { userId: a.agent.user.id, routingTargetId: a.inboxId };
      for (const ids of mixedIds(contract.path)) {
        const path = fillPath(contract.path, ids);
        const body = contract.body ? validValue(contract.body, random, '', (key) => idsOfA[key]) : undefined;
        if (contract.auth === 'twilio') {
          const params = Object.fromEntries(Object.entries(body as object).map(([k, v]) => [k, String(v)]));
          const answer = await postWebhook(`${stack().urls.api}${path}`, params, { authToken: b.line.twilio.authToken });
          expect(answer.status, `${path} signed by B: ${answer.text}`).toBe(403);
        } else {
          const res = await api(path, { method: contract.method, body, token: b.owner.tokens.accessToken });
          expect(res.status, `${contract.method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBe(expected);
          expect(res.body).toMatchObject({ success: false, error: { code: expected === 404 ? 'NOT_FOUND' : 'FORBIDDEN' } });
        }
      }
      expect(await snapshotOfA()).toEqual(before);
    });
  }
});

/**
 * The stranger inside the company: an agent of A in no inbox (docs/product.md: Who sees what). Every
 * route under these paths names something of A they may not see, and answers them exactly as it answers
 * B's owner (404, same code and message): to them it does not exist. A route whose items an agent may
 * see by the rule goes here with its path's beginning.
 */
const HIDDEN_FROM_STRANGERS = [
  endpoints.getConversation.path,
  // A call's routes: the voicemail's path less its last part.
  endpoints.voicemailAudio.path.slice(0, endpoints.voicemailAudio.path.lastIndexOf('/')),
];

describe("company A's agent in no inbox, with A's ids", () => {
  const routes = httpRoutes.filter(
    (r) => r.contract.auth === 'user' && HIDDEN_FROM_STRANGERS.some((prefix) => r.contract.path.startsWith(prefix)),
  );

  it('covers every route of what the rule hides', () => {
    for (const prefix of HIDDEN_FROM_STRANGERS)
      expect(
        routes.some((r) => r.contract.path.startsWith(prefix)),
        prefix,
      ).toBe(true);
  });

  for (const { contract } of routes) {
    it(`${contract.method} ${contract.path} → 404 as for B's owner, nothing of A changed`, async () => {
      const before = await snapshotOfA();
      const path = fillPath(contract.path, a.pathIds);
      // A member of A and an inbox of A in the body: ids the stranger's own company holds.
      const idsOfA: Record<string, string> = { userId: a.agent.user.id, routingTargetId: a.inboxId };
      const body = contract.body
        ? validValue(contract.body, seededRandom(hashText(contract.path)), '', (key) => idsOfA[key])
        : undefined;
      const ask = (account: typeof a.stranger) => api(path, { method: contract.method, body, token: account.tokens.accessToken });
      const [stranger, outsider] = await Promise.all([ask(a.stranger), ask(b.owner)]);
      expect(stranger.status, `${contract.method} ${path}: ${JSON.stringify(stranger.body)}`).toBe(404);
      expect(stranger.body).toEqual(outsider.body);
      expect(await snapshotOfA()).toEqual(before);
    });
  }

  it("Call History shows the stranger none of A's calls", async () => {
    const calls = await callRoute(endpoints.listCalls, { token: a.stranger.tokens.accessToken });
    expect(calls.status).toBe(200);
    expect(calls.body.data.calls).toEqual([]);
  });
});

describe("company B's lists", () => {
  const lists = httpRoutes.filter(
    (r) => r.contract.method === 'GET' && r.contract.auth === 'user' && !r.contract.path.includes('{'),
  );

  /** Every id, SID and address of A's items: none may appear in anything B reads. */
  async function identifiersOfA(): Promise<string[]> {
    const found = new Set<string>();
    for (const item of await snapshotOfA()) {
      for (const [name, value] of Object.entries(item)) {
        if (typeof value === 'string' && value.length >= 8 && /^(id|email)$|Id$|Sid$/.test(name)) found.add(value);
      }
    }
    return [...found];
  }

  for (const { contract } of lists) {
    it(`${contract.path} shows nothing of A's, whatever it is asked`, async () => {
      const identifiers = await identifiersOfA();
      expect(identifiers).toContain(a.conversationId);
      const fields = contract.query ? Object.keys(validValue(contract.query, seededRandom(1)) as object) : [];
      // B's own view, and every query field set to what identifies A's contact (a search for it).
      const queries = [
        '',
        ...fields.flatMap((field) =>
          [a.contact.phoneNumber, a.contact.name, a.contact.email ?? ''].map(
            (value) => `?${new URLSearchParams({ [field]: value })}`,
          ),
        ),
      ];
      for (const query of queries) {
        const res = await api(`${contract.path}${query}`, { token: b.owner.tokens.accessToken });
        expect([200, 400], `${contract.path}${query}: ${JSON.stringify(res.body)}`).toContain(res.status);
        const text = JSON.stringify(res.body);
        expect(
          identifiers.filter((id) => text.includes(id)),
          `${contract.path}${query}`,
        ).toEqual([]);
      }
    });
  }

  it("B's own lists are not empty: the probe reads real data", async () => {
    const contacts = await callRoute(endpoints.listContacts, { token: b.owner.tokens.accessToken });
    expect(contacts.body.data.contacts.map((c) => c.id)).toContain(b.contact.id);
    const calls = await callRoute(endpoints.listCalls, { token: b.owner.tokens.accessToken });
    expect(calls.body.data.calls).toHaveLength(1);
  });
});
