import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { twilioSignature } from '@switchboard/twilio-emulator/signature';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sumCounts } from '../../functions/conversations/records';
import { forEachLimited } from '../../functions/lib/concurrency';
import { httpRoutes } from '../../functions/routes';
import type { Message } from '../../shared/contract/conversations';
import { TWILIO_WEBHOOKS } from '../../shared/contract/route';
import {
  newMessageSid,
  newPhone,
  postWebhook,
  readConversation,
  sendText,
  statusParams,
  type WebhookAnswer,
} from '../support/sms';
import { testTable } from '../support/table';
import { emulatorMessages, setMessageStepMs, setTwilioFaults } from '../support/twilio';
import { inboundParams as callParams, identityOf, listCalls, newCallSid, signedLine } from '../support/voice';

/**
 * Every Twilio webhook of the route table, abused as an attacker or a misbehaving network would:
 * forged signatures, replays, status callbacks in every order, Sids it does not know or that belong to
 * another company. Requests are signed and posted here (as the emulator's signature module signs
 * them) so each case is exact; what is checked is what the company has stored.
 */

type Line = Awaited<ReturnType<typeof signedLine>> & { root: string; conversationId: string };
type Params = Record<string, string>;

/** A request to one webhook: its parameters and the query of the URL Twilio was given. */
interface Request {
  params: Params;
  query?: string;
}

let a: Line;
let b: Line;

async function companyLine(): Promise<Line> {
  const line = await signedLine(1);
  // Only the callbacks posted here arrive: the carrier keeps sent texts queued for a minute, and loses its own
  // status callbacks besides, for a file that runs longer than that on a busy machine.
  await setMessageStepMs(60_000, line.twilio.accountSid);
  await setTwilioFaults(line.twilio.accountSid, { webhooks: { drop: 1_000_000 } });
  const root = line.voiceUrl.replace(/\/voice$/, '');
  const phone = newPhone();
  const answer = await postWebhook(`${root}/sms`, smsParams(line, phone, 'Hello'), { authToken: line.twilio.authToken });
  if (answer.status !== 200) throw new Error(`first text: ${answer.status} ${answer.text}`);
  const event = await line.sockets[0]?.next('new_message', (e) => e.data.conversation.contact.phoneNumber === phone);
  if (!event) throw new Error('no socket');
  return { ...line, root, conversationId: event.data.conversationId };
}

function smsParams(line: Pick<Line, 'twilio' | 'channel'>, from: string, body: string, sid = newMessageSid()): Params {
  return {
    AccountSid: line.twilio.accountSid,
    ApiVersion: '2010-04-01',
    Body: body,
    From: from,
    MessageSid: sid,
    NumSegments: '1',
    SmsSid: sid,
    SmsStatus: 'received',
    To: line.channel.identifier,
  };
}

/** A text the agent sent, Twilio's sid for it and the StatusCallback (with its query) Twilio holds. */
async function sentTexts(line: Line, count: number) {
  const sent: { sid: string; query: string; messageId: string }[] = [];
  await forEachLimited(
    Array.from({ length: count }, (_, i) => i),
    8,
    async (i) => {
      const res = await sendText(line.owner, line.conversationId, `Reply ${i}`);
      if (res.status !== 201) throw new Error(`send: ${res.status} ${JSON.stringify(res.body)}`);
      const { id, smsMessage } = res.body.data.message;
      sent.push({ sid: smsMessage.providerMessageId as string, query: '', messageId: id });
    },
  );
  const held = new Map((await emulatorMessages(line.twilio.accountSid)).map((m) => [m.sid, m.status_callback]));
  return sent.map((s) => ({ ...s, query: new URL(held.get(s.sid) as string).search }));
}

/** A call ringing the company's inbox, as Twilio's first request stores it. */
async function ringingCall(line: Line): Promise<string> {
  const sid = newCallSid();
  const answer = await post(line, '/voice', { params: callParams(line, sid, newPhone()) });
  if (answer.status !== 200) throw new Error(`call: ${answer.status} ${answer.text}`);
  return sid;
}

function post(line: Line, path: string, request: Request, options: { signature?: string | null; signedUrl?: string } = {}) {
  const url = `${line.root}${path}${request.query ?? ''}`;
  return postWebhook(url, request.params, { authToken: line.twilio.authToken, ...options });
}

/**
 * How to drive one webhook: `request` makes a valid request of `line`'s company that changes what it
 * stores (a new text or call, or a status ahead of the stored one); `foreign` one that names a Sid of
 * another company (`other`), to be posted to `line`'s webhook.
 */
interface WebhookCase {
  request(line: Line): Promise<Request>;
  foreign(line: Line, other: Line): Promise<Request>;
  /** Whether the webhook reports on a Sid the platform stored before (status callbacks). */
  reportsOnStoredSid: boolean;
  /** The webhook only answers TwiML, storing nothing even when genuine (a voicemail's `<Record action>`). */
  storesNothing?: true;
}

const cases: Record<string, WebhookCase> = {
  '/sms': {
    request: async (line) => ({ params: smsParams(line, newPhone(), 'Is my order ready?') }),
    // Their text's MessageSid, from one of this company's own contacts.
    foreign: async (line, other) => {
      const [theirs] = await sentTexts(other, 1);
      return { params: smsParams(line, newPhone(), 'Hijack', theirs?.sid) };
    },
    reportsOnStoredSid: false,
  },
  '/sms/status': {
    request: async (line) => {
      const [sent] = await sentTexts(line, 1);
      if (!sent) throw new Error('not sent');
      return { params: statusParams(line, sent.sid, 'delivered'), query: sent.query };
    },
    // Their message's sid, and its place in their table as the query, signed for this webhook.
    foreign: async (line, other) => {
      const [theirs] = await sentTexts(other, 1);
      if (!theirs) throw new Error('not sent');
      return { params: statusParams(line, theirs.sid, 'delivered'), query: theirs.query };
    },
    reportsOnStoredSid: true,
  },
  '/voice': {
    request: async (line) => ({ params: callParams(line, newCallSid(), newPhone()) }),
    foreign: async (line, other) => ({ params: callParams(line, await ringingCall(other), newPhone()) }),
    reportsOnStoredSid: false,
  },
  '/voice/status': {
    request: async (line) => ({ params: { CallSid: await ringingCall(line), CallStatus: 'completed', CallDuration: '3' } }),
    foreign: async (_line, other) => ({
      params: { CallSid: await ringingCall(other), CallStatus: 'completed', CallDuration: '3' },
    }),
    reportsOnStoredSid: true,
  },
  '/voice/dial-result': {
    request: async (line) => ({
      params: { CallSid: await ringingCall(line), DialCallStatus: 'no-answer', DialCallDuration: '0' },
    }),
    foreign: async (_line, other) => ({
      params: { CallSid: await ringingCall(other), DialCallStatus: 'no-answer', DialCallDuration: '0' },
    }),
    reportsOnStoredSid: true,
  },
  '/voice/outbound': {
    request: async (line) => {
      // One live outbound call per user: the owner's earlier call has ended, and each request
      // finds the live-call and rate items already there, so every one changes the same shape.
      const previous = placedOutbound.get(line);
      if (previous) await endCall(line, previous);
      await endCall(line, await placeOutbound(line));
      const sid = newCallSid();
      placedOutbound.set(line, sid);
      return { params: outboundParams(line, sid) };
    },
    foreign: async (line, other) => ({ params: outboundParams(line, await ringingCall(other)) }),
    reportsOnStoredSid: false,
  },
  // The end of a voicemail's <Record>: the call hangs up; nothing is stored.
  '/voice/voicemail': {
    request: async (line) => ({
      params: { CallSid: await unansweredCall(line), RecordingSid: newRecordingSid(), RecordingDuration: '4' },
    }),
    foreign: async (_line, other) => ({
      params: { CallSid: await unansweredCall(other), RecordingSid: newRecordingSid(), RecordingDuration: '4' },
    }),
    reportsOnStoredSid: true,
    storesNothing: true,
  },
  // Twilio's recording status callback: the voicemail is kept on the call, once.
  '/voice/recording': {
    request: async (line) => ({ params: recordingParams(line, await unansweredCall(line)) }),
    foreign: async (line, other) => ({ params: recordingParams(line, await unansweredCall(other)) }),
    reportsOnStoredSid: true,
  },
};

const newRecordingSid = () => `RE${newCallSid().slice(2)}`;

/** A call the inbox did not answer: the ring timed out (the Dial's action heard no-answer), so the caller was recorded. */
async function unansweredCall(line: Line): Promise<string> {
  const sid = await ringingCall(line);
  const ended = await post(line, '/voice/dial-result', {
    params: { CallSid: sid, DialCallStatus: 'no-answer', DialCallDuration: '0' },
  });
  if (!ended.text.includes('<Record')) throw new Error(`no voicemail: ${ended.status} ${ended.text}`);
  return sid;
}

/** A finished voicemail as Twilio's recordingStatusCallback reports it. */
function recordingParams(line: Pick<Line, 'twilio'>, callSid: string): Params {
  const recordingSid = newRecordingSid();
  return {
    AccountSid: line.twilio.accountSid,
    CallSid: callSid,
    RecordingSid: recordingSid,
    RecordingUrl: `https://api.twilio.com/2010-04-01/Accounts/${line.twilio.accountSid}/Recordings/${recordingSid}`,
    RecordingStatus: 'completed',
    RecordingDuration: '6',
    RecordingChannels: '1',
    RecordingSource: 'RecordVerb',
  };
}

/** The outbound call each line's last request placed. */
const placedOutbound = new Map<Line, string>();

async function placeOutbound(line: Line): Promise<string> {
  const sid = newCallSid();
  const placed = await post(line, '/voice/outbound', { params: outboundParams(line, sid) });
  if (!placed.text.includes('<Dial')) throw new Error(`outbound call not placed: ${placed.text}`);
  return sid;
}

/** Twilio reports the end of the call itself. */
async function endCall(line: Line, sid: string): Promise<void> {
  const ended = await post(line, '/voice/status', { params: { CallSid: sid, CallStatus: 'completed', CallDuration: '0' } });
  if (ended.status !== 200) throw new Error(`end of call: ${ended.status} ${ended.text}`);
}

/** The browser's call out, as Twilio requests the TwiML application's Voice URL. */
function outboundParams(line: Line, sid: string): Params {
  return {
    AccountSid: line.twilio.accountSid,
    ApiVersion: '2010-04-01',
    CallSid: sid,
    Caller: `client:${identityOf(line.owner)}`,
    Direction: 'inbound',
    From: line.channel.identifier,
    To: newPhone(),
  };
}

const WEBHOOK_PREFIX = `${TWILIO_WEBHOOKS}/{webhookId}`;
const webhooks = httpRoutes.filter((r) => r.contract.auth === 'twilio').map((r) => r.contract.path.slice(WEBHOOK_PREFIX.length));

/**
 * Everything a company has stored, as comparable lines: its partition, its contact search entries
 * and each conversation's messages. Socket connections are left out (they change with heartbeats).
 */
async function companyItems(line: Line): Promise<Map<string, Record<string, unknown>>> {
  const { client, tableName } = testTable();
  const query = async (PK: string) => {
    const items: Record<string, unknown>[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': PK },
          ConsistentRead: true,
          ExclusiveStartKey,
        }),
      );
      items.push(...((page.Items ?? []) as Record<string, unknown>[]));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return items;
  };
  const companyPk = `COMPANY#${line.owner.company.id}`;
  const own = (await query(companyPk)).filter((item) => !String(item.SK).startsWith('CONN#'));
  const conversations = own.filter((item) => item.entity === 'CONVERSATION').map((item) => `${companyPk}#CONV#${item.id}`);
  const rest = await Promise.all([query(`${companyPk}#CONTACTSEARCH`), ...conversations.map(query)]);
  // The counters' shards as the one total they are read as: which shard a change lands on is chance.
  const shards = own.filter((item) => item.entity === 'COMPANY_COUNTERS');
  const counters = shards.length
    ? [{ PK: companyPk, SK: 'META#COUNTERS', entity: 'COMPANY_COUNTERS', ...sumCounts(shards) }]
    : [];
  return new Map(
    [...own.filter((item) => !shards.includes(item)), ...counters, ...rest.flat()].map((item) => [`${item.PK} ${item.SK}`, item]),
  );
}

/**
 * What changed between two reads, as a sorted list of the kinds of items added or changed, with how
 * far each number moved: two requests of the same kind change the same shape, whatever their ids.
 */
function changes(before: Map<string, Record<string, unknown>>, after: Map<string, Record<string, unknown>>): string[] {
  const out: string[] = [];
  for (const [key, item] of after) {
    const was = before.get(key);
    if (!was) {
      out.push(`+${item.entity ?? String(item.PK).split('#').at(-1)}`);
      continue;
    }
    if (JSON.stringify(was) === JSON.stringify(item)) continue;
    const moved = Object.keys(item)
      .filter((name) => typeof item[name] === 'number' && item[name] !== was[name])
      .map((name) => `${name}${(item[name] as number) - ((was[name] as number) ?? 0)}`);
    out.push(`~${item.entity}${moved.length ? ` ${moved.sort().join(' ')}` : ''}`);
  }
  for (const key of before.keys()) if (!after.has(key)) out.push(`-${before.get(key)?.entity}`);
  return out.sort();
}

const ignored = (answer: WebhookAnswer) => ({ status: answer.status, isError: answer.text.includes('"success":false') });

beforeAll(async () => {
  [a, b] = await Promise.all([companyLine(), companyLine()]);
});

afterAll(async () => {
  await Promise.all([...(a?.sockets ?? []), ...(b?.sockets ?? [])].map((s) => s.close()));
});

describe('Twilio webhooks under abuse', () => {
  it('have a case here for every webhook of the route table', () => {
    expect(webhooks.sort()).toEqual(Object.keys(cases).sort());
  });

  describe.each(webhooks)('%s', (path) => {
    const webhook = cases[path] as WebhookCase;

    it('refuses forged requests with 403 and stores nothing, then takes the genuine one once, however often it is replayed', async () => {
      const once = await changesOfOne(a, path);
      const request = await webhook.request(a);
      const url = `${a.root}${path}${request.query ?? ''}`;
      const before = await companyItems(a);
      const tampered = Object.fromEntries(
        Object.entries(request.params).map(([name, value], i) => [name, i === 0 ? `${value}0` : value]),
      );
      const forgeries: [string, Promise<WebhookAnswer>][] = [
        ['no signature', post(a, path, request, { signature: null })],
        ['a garbled signature', post(a, path, request, { signature: 'bm90IGEgc2lnbmF0dXJl!' })],
        ['signed with another account', postWebhook(url, request.params, { authToken: b.twilio.authToken })],
        ['signed for another URL', post(a, path, request, { signedUrl: `${b.root}${path}${request.query ?? ''}` })],
        ...(request.query
          ? [
              ['signed without the query', post(a, path, request, { signedUrl: `${a.root}${path}` })] as [
                string,
                Promise<WebhookAnswer>,
              ],
            ]
          : []),
        [
          'a parameter changed after signing',
          post(
            a,
            path,
            { ...request, params: tampered },
            { signature: twilioSignature(a.twilio.authToken, url, request.params) },
          ),
        ],
        [
          'a parameter added after signing',
          post(
            a,
            path,
            { ...request, params: { ...request.params, Extra: '1' } },
            { signature: twilioSignature(a.twilio.authToken, url, request.params) },
          ),
        ],
      ];
      for (const [name, answer] of forgeries) {
        const { status, text } = await answer;
        expect({ name, status, code: JSON.parse(text).error?.code }).toEqual({ name, status: 403, code: 'FORBIDDEN' });
      }
      expect(changes(before, await companyItems(a))).toEqual([]);

      // The genuine request, five times at once: stored once.
      const parallel = await Promise.all(Array.from({ length: 5 }, () => post(a, path, request)));
      expect(parallel.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(new Set(parallel.map((r) => r.text)).size).toBe(1);
      const afterParallel = await companyItems(a);
      expect(changes(before, afterParallel)).toEqual(once);
      // And five times more, one after another: nothing more changes.
      for (let i = 0; i < 5; i++) expect(await post(a, path, request)).toEqual(parallel[0]);
      expect(changes(afterParallel, await companyItems(a))).toEqual([]);
    });

    it('ignores (200) a Sid of another company posted to this company’s webhook, touching neither', async () => {
      const request = await webhook.foreign(a, b);
      const [mineBefore, theirsBefore] = await Promise.all([companyItems(a), companyItems(b)]);
      const answer = await post(a, path, request);
      expect(ignored(answer)).toEqual({ status: 200, isError: false });
      expect(changes(theirsBefore, await companyItems(b))).toEqual([]);
      // A status callback changes nothing of this company either; a first request may store what it
      // says under this company, but never as the other company's call or text.
      if (webhook.reportsOnStoredSid) expect(changes(mineBefore, await companyItems(a))).toEqual([]);
      else expect(changes(mineBefore, await companyItems(a))).not.toContain('+CALL');
    });

    // Only status callbacks name a Sid stored before; a first request with a new Sid is the genuine case above.
    if (!webhook.reportsOnStoredSid) return;
    it('ignores (200) a callback for a Sid it never stored', async () => {
      const request = await webhook.request(a);
      const unknown = path.startsWith('/sms')
        ? { params: { ...request.params, MessageSid: newMessageSid(), SmsSid: newMessageSid() } }
        : { params: { ...request.params, CallSid: newCallSid() } };
      const before = await companyItems(a);
      expect(ignored(await post(a, path, unknown))).toEqual({ status: 200, isError: false });
      expect(changes(before, await companyItems(a))).toEqual([]);
    });
  });
});

/** Every order of the items. */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

/** Where each SMS status stands (docs/architecture.md §3: only forward; failed and undelivered end it, only delivered beats them). */
const SMS_RANK: Record<string, number> = { sending: 2, sent: 3, failed: 4, undelivered: 4, delivered: 5 };
const SMS_ERROR: Record<string, number> = { failed: 30008, undelivered: 30003 };

/** Every message of a conversation, paging back through the thread. */
async function thread(line: Line) {
  const messages: Message[] = [];
  let before: string | undefined;
  do {
    const read = await readConversation(line.owner, line.conversationId, before);
    messages.push(...read.body.data.conversation.messages);
    before = read.body.data.conversation.olderCursor ?? undefined;
  } while (before);
  return messages;
}

describe('status callbacks in every order', () => {
  it('leave each text in the furthest status reported, the first end kept unless delivered', async () => {
    const orders = [
      ...permutations(['sent', 'delivered', 'failed', 'undelivered']),
      // The two ends against each other and a status they follow.
      ...permutations(['sending', 'failed', 'undelivered']),
    ];
    const texts = await sentTexts(a, orders.length);
    await forEachLimited(
      orders.map((order, i) => ({ order, text: texts[i] as (typeof texts)[number] })),
      8,
      async ({ order, text }) => {
        for (const status of order) {
          const error = SMS_ERROR[status];
          const answer = await post(a, '/sms/status', {
            params: statusParams(a, text.sid, status, error ? { ErrorCode: String(error) } : {}),
            query: text.query,
          });
          expect(answer.status).toBe(200);
        }
      },
    );
    const shown = new Map((await thread(a)).map((m) => [m.id, m]));
    for (const [i, order] of orders.entries()) {
      const final = order.reduce((kept, status) => ((SMS_RANK[status] as number) > (SMS_RANK[kept] as number) ? status : kept));
      const message = shown.get(texts[i]?.messageId as string);
      expect({
        order: order.join(' → '),
        status: message?.status,
        providerStatus: message?.smsMessage.providerStatus,
        errorCode: message?.smsMessage.errorCode,
      }).toEqual({
        order: order.join(' → '),
        status: final.toUpperCase(),
        providerStatus: final,
        errorCode: SMS_ERROR[final] ?? null,
      });
    }
  });

  it('leave each call in the same state whatever order its callbacks arrive in', async () => {
    const agent = `client:${identityOf(a.owner)}`;
    type Report = [path: string, params: (callSid: string, legSid: string) => Params];
    const leg = (status: string, duration?: string): Report => [
      '/voice/status',
      (callSid, legSid) => ({
        CallSid: legSid,
        ParentCallSid: callSid,
        CallStatus: status,
        To: agent,
        ...(duration ? { CallDuration: duration } : {}),
      }),
    ];
    const endOfCall: Report[] = [
      ['/voice/dial-result', (callSid) => ({ CallSid: callSid, DialCallStatus: 'completed', DialCallDuration: '42' })],
      ['/voice/status', (callSid) => ({ CallSid: callSid, CallStatus: 'completed', CallDuration: '45' })],
    ];
    const answered = permutations([leg('initiated'), leg('ringing'), leg('in-progress'), leg('completed', '42')]).map(
      // The end of the call lands at a different place in each order.
      (order, i) => {
        const out = [...order];
        out.splice(i % 5, 0, endOfCall[i % 2] as Report);
        out.splice((i * 3) % 6, 0, endOfCall[(i + 1) % 2] as Report);
        return out;
      },
    );
    const missed = permutations([
      leg('ringing'),
      leg('no-answer', '0'),
      ['/voice/dial-result', (callSid) => ({ CallSid: callSid, DialCallStatus: 'no-answer', DialCallDuration: '0' })] as Report,
    ]);
    const calls = [
      ...answered.map((order) => ({
        order,
        expected: { callStatus: 'COMPLETED', durationSeconds: 42, answeredBy: { id: a.owner.user.id, name: a.owner.user.name } },
      })),
      ...missed.map((order) => ({ order, expected: { callStatus: 'NO_ANSWER', durationSeconds: 0, answeredBy: null } })),
    ].map((call) => ({ ...call, callSid: '', legSid: newCallSid() }));
    await forEachLimited(calls, 8, async (call) => {
      call.callSid = await ringingCall(a);
      for (const [path, params] of call.order) {
        expect((await post(a, path, { params: params(call.callSid, call.legSid) })).status).toBe(200);
      }
    });
    const listed = new Map((await listCalls(a.owner, { limit: '100' })).body.data.calls.map((c) => [c.providerCallId, c]));
    for (const call of calls) {
      const order = call.order.map(([path, params]) => {
        const p = params(call.callSid, call.legSid);
        return `${p.ParentCallSid ? 'leg' : path} ${p.CallStatus ?? p.DialCallStatus}`;
      });
      expect({ order, ...listed.get(call.callSid) }).toMatchObject({ order, ...call.expected });
    }
  });
});

/** What one genuine request of this webhook changes, on a fresh request of its own. */
async function changesOfOne(line: Line, path: string): Promise<string[]> {
  const request = await (cases[path] as WebhookCase).request(line);
  const before = await companyItems(line);
  const answer = await post(line, path, request);
  expect(answer.status).toBe(200);
  const changed = changes(before, await companyItems(line));
  if (!(cases[path] as WebhookCase).storesNothing) expect(changed).not.toEqual([]);
  return changed;
}
