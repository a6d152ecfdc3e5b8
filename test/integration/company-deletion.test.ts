import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { functionAccessKeyId } from '../../local/table-guard';
import {
  type Account,
  callRoute,
  mailTo,
  newClientAddress,
  type SentMail,
  signUp,
  stack,
  unchecked,
  verificationToken,
  verifyEmail,
} from '../support/api';
import { type CompanyFixture, companyItems, companyWithEverything } from '../support/company-fixture';
import { endpoints } from '../support/endpoints';
import { PLATFORM_ADMIN_DELETION } from '../support/global-setup';
import { textIn } from '../support/sms';
import { openSocket } from '../support/socket';
import { testTable } from '../support/table';
import { type EmulatorNumber, newTwilioAccount, numberOf, numbersByKind } from '../support/twilio';

/**
 * Deleting a company (docs/product.md: Deleting a company), through the real
 * handlers, the local SQS stand-in and the worker, against DynamoDB Local and the Twilio emulator.
 */

/** Every item of the table that names the company anywhere: its keys or any attribute. */
async function itemsNaming(companyId: string): Promise<Record<string, unknown>[]> {
  const { client, tableName } = testTable();
  const found: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey }));
    found.push(...(page.Items ?? []).filter((item) => JSON.stringify(item).includes(companyId)));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return found;
}

/**
 * How many items the worker would still delete: those whose partition key holds the company id or whose
 * `companyId` is it, counted by the table itself (functions/company/sweep.ts). A cheap thing to poll
 * while the deletion runs; the scan of every attribute (itemsNaming) then runs once it says none.
 */
async function sweepLeft(companyId: string): Promise<number> {
  const { client, tableName } = testTable();
  let count = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({
        TableName: tableName,
        ExclusiveStartKey,
        Select: 'COUNT',
        FilterExpression: 'contains(PK, :companyId) OR companyId = :companyId',
        ExpressionAttributeValues: { ':companyId': companyId },
      }),
    );
    count += page.Count ?? 0;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return count;
}

async function tableItem(key: { PK: string; SK: string }) {
  const { client, tableName } = testTable();
  return (await client.send(new GetCommand({ TableName: tableName, Key: key }))).Item;
}

const urlsOf = (n: EmulatorNumber) => [n.voice_url, n.voice_method, n.sms_url, n.sms_method, n.status_callback];

const deleteOwn = (account: Pick<Account, 'tokens'>, confirm: unknown) =>
  callRoute(endpoints.deleteCompany, { token: account.tokens.accessToken, body: unchecked({ confirm }) });

const deleteAsAdmin = (admin: Pick<Account, 'tokens'>, companyId: string, confirm: unknown) =>
  callRoute(endpoints.adminDeleteCompany, {
    params: { id: companyId },
    token: admin.tokens.accessToken,
    body: unchecked({ confirm }),
  });

const me = (account: Pick<Account, 'tokens'>) => callRoute(endpoints.me, { token: account.tokens.accessToken });

const login = (account: Pick<Account, 'email' | 'password'>) =>
  callRoute(endpoints.login, { body: { email: account.email, password: account.password }, address: newClientAddress() });

/** A company with one of everything, its Twilio number's URLs from before the import, and an open socket. */
async function doomedCompany(name: string) {
  const twilio = await newTwilioAccount();
  const before = urlsOf(await numberOf(twilio, numbersByKind(twilio).full.sid));
  const fixture = await companyWithEverything(name, { twilio });
  const socket = await openSocket(fixture.agent.tokens.accessToken);
  const numberSid = numbersByKind(twilio).full.sid;
  expect(urlsOf(await numberOf(twilio, numberSid))).not.toEqual(before);
  return { ...fixture, twilio, numberSid, before, socket };
}

/** What a deleted company leaves: nothing in the table, its number back as before, its people signed out and free to sign up. */
async function expectGone(company: Awaited<ReturnType<typeof doomedCompany>>) {
  const companyId = company.owner.company.id;
  await expect(company.socket.closed).resolves.toBe(1000);
  // At once: every token of the company is refused, and nobody signs in.
  for (const person of [company.owner, company.agent]) {
    expect((await me(person)).status).toBe(401);
    expect((await login(person)).status).toBe(401);
  }
  // Texts to its number no longer reach it.
  expect((await textIn(company.line, { from: company.contact.phoneNumber, body: 'Anyone?' })).status).toBe(404);
  // In the background: nothing that names the company is left, its number is as it was.
  await expect.poll(() => sweepLeft(companyId), { timeout: 30_000, interval: 200 }).toBe(0);
  await expect.poll(() => itemsNaming(companyId), { timeout: 30_000, interval: 200 }).toEqual([]);
  expect(urlsOf(await numberOf(company.twilio, company.numberSid))).toEqual(company.before);
  expect(await tableItem({ PK: `EMAIL#${company.owner.email}`, SK: 'EMAIL' })).toBeUndefined();
  expect(await tableItem({ PK: `WEBHOOK#${company.webhookId}`, SK: 'WEBHOOK' })).toBeUndefined();
  // Their addresses are free: the owner signs up again, with a new company.
  const registered = await callRoute(endpoints.register, {
    body: { companyName: 'Second Life', name: 'Ada Again', email: company.owner.email, password: 'another horse battery' },
    address: newClientAddress(),
  });
  expect(registered.status).toBe(201);
  const latest = (await mailTo(company.owner.email)).at(-1);
  const again = await verifyEmail(verificationToken(latest as SentMail));
  expect(again.status).toBe(200);
  expect(again.body.data.company.name).toBe('Second Life');
  expect(again.body.data.company.id).not.toBe(companyId);
}

/**
 * A company with one of everything that is never deleted: the tests that delete nothing share it, and
 * it is the bystander of a deletion, whose items must all stay.
 */
let kept: Promise<CompanyFixture> | undefined;
const keptCompany = () => {
  kept ??= companyWithEverything('Careful Corp');
  return kept;
};

describe('the owner deleting the company', () => {
  it('refuses a wrong name with a 400 that says so, and deletes nothing', async () => {
    const company = await keptCompany();
    const companyId = company.owner.company.id;
    const before = await itemsNaming(companyId);

    const wrong = await deleteOwn(company.owner, 'careful corp');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error?.message).toMatch(/not the company’s name: nothing was deleted/);
    expect(wrong.body.error?.details).toEqual({ fields: { confirm: 'Type Careful Corp to confirm' } });
    expect((await deleteOwn(company.owner, '')).status).toBe(400);
    expect(
      (await callRoute(endpoints.deleteCompany, { token: company.owner.tokens.accessToken, body: unchecked(undefined) })).status,
    ).toBe(400);

    expect(await itemsNaming(companyId)).toHaveLength(before.length);
    expect((await me(company.owner)).status).toBe(200);
    expect((await me(company.agent)).status).toBe(200);
  });

  it('is for the owner only: an admin or an agent gets 403', async () => {
    const company = await keptCompany();
    // The agent in no inbox is made an admin; the other agent stays one (the retention test below needs one).
    expect((await deleteOwn(company.agent, 'Careful Corp')).status).toBe(403);
    const admin = await callRoute(endpoints.updateUserRole, {
      params: { id: company.stranger.user.id },
      token: company.owner.tokens.accessToken,
      body: { role: 'ADMIN' },
    });
    expect(admin.status).toBe(200);
    const refused = await deleteOwn(company.stranger, 'Careful Corp');
    expect(refused.status).toBe(403);
    expect(refused.body.error?.message).toBe('Only the owner can do this.');
    expect((await me(company.owner)).status).toBe(200);
  });

  it('ends every session and socket at once, then removes everything and puts the numbers back', async () => {
    const company = await doomedCompany('Doomed Inc');
    // Another company, with its own number: nothing of it goes.
    const bystander = await keptCompany();
    const bystanderItems = await itemsNaming(bystander.owner.company.id);

    const deleted = await deleteOwn(company.owner, '  Doomed Inc ');
    expect(deleted.status).toBe(202);
    expect(deleted.body.data).toEqual({ deletion: { companyId: company.owner.company.id, status: 'DELETING' } });
    expect(deleted.body.message).toBe('Your company is being deleted.');

    await expectGone(company);
    expect((await itemsNaming(bystander.owner.company.id)).length).toBe(bystanderItems.length);
    expect((await me(bystander.owner)).status).toBe(200);
  });
});

describe('a platform administrator deleting a company', () => {
  let admin: Promise<Account> | undefined;
  const platformAdmin = () => {
    admin ??= signUp({ email: PLATFORM_ADMIN_DELETION, companyName: 'Deletion Ops' });
    return admin;
  };

  it('deletes any company, with the same confirmation; asking again while it runs answers the same', async () => {
    const ops = await platformAdmin();
    const company = await doomedCompany('Abandoned LLC');
    const companyId = company.owner.company.id;

    const wrong = await deleteAsAdmin(ops, companyId, 'Abandoned');
    expect(wrong.status).toBe(400);
    expect((await me(company.owner)).status).toBe(200);

    const deleted = await deleteAsAdmin(ops, companyId, 'Abandoned LLC');
    expect(deleted.status).toBe(202);
    expect(deleted.body.data.deletion).toEqual({ companyId, status: 'DELETING' });
    await expectGone(company);
    expect((await deleteAsAdmin(ops, companyId, 'Abandoned LLC')).status).toBe(404);
    // The admin's own company and session are untouched.
    expect((await me(ops)).status).toBe(200);
  });

  it('answers 404 for an unknown company, and 403 to anyone not a platform administrator', async () => {
    const ops = await platformAdmin();
    const unknown = await deleteAsAdmin(ops, 'no-such-company', 'Anything');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.message).toBe('Company not found');

    // Another company's owner cannot reach this one through the admin route.
    const target = await signUp({ companyName: 'Target Co' });
    const other = await signUp({ companyName: 'Other Co' });
    expect((await deleteAsAdmin(other, target.company.id, 'Target Co')).status).toBe(403);
    expect((await deleteAsAdmin(target, target.company.id, 'Target Co')).status).toBe(403);
    expect((await me(target)).status).toBe(200);
  });
});

describe('the deletion queue, sent a company that is not being deleted (docs/security.md: The company-deletion queue)', () => {
  /** What the local SQS answers a SendMessage of `body` signed with `accessKeyId` (as the SDK signs). */
  const sendSigned = (accessKeyId: string, body: unknown) => {
    const { SQS_ENDPOINT, COMPANY_DELETION_QUEUE_URL, AWS_SECRET_ACCESS_KEY } = stack().env;
    const sqs = new SQSClient({
      endpoint: SQS_ENDPOINT,
      region: 'us-east-1',
      credentials: { accessKeyId, secretAccessKey: AWS_SECRET_ACCESS_KEY ?? 'local' },
    });
    return sqs.send(new SendMessageCommand({ QueueUrl: COMPANY_DELETION_QUEUE_URL, MessageBody: JSON.stringify(body) }));
  };

  /** A raw SendMessage to the stack's endpoint with these headers, as a page or a script could post it. */
  const postRaw = (headers: Record<string, string>) => {
    const { SQS_ENDPOINT = '', COMPANY_DELETION_QUEUE_URL } = stack().env;
    const url = new URL(SQS_ENDPOINT);
    return new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'AmazonSQS.SendMessage', ...headers },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ QueueUrl: COMPANY_DELETION_QUEUE_URL, MessageBody: '{"companyId":"x"}' }));
    });
  };

  it('leaves a company that was never deleted whole: the worker drops the step, saying so', async () => {
    const company = await signUp({ companyName: 'Never Deleted Ltd' });
    const companyId = company.company.id;
    const before = (await itemsNaming(companyId)).length;

    // Signed as the worker itself, the one function besides the delete routes that may send to the queue.
    await sendSigned(functionAccessKeyId('jobs/company-deletion', 'sweep'), { companyId });
    const dropped = () =>
      readFileSync(inject('productLog'), 'utf8')
        .split('\n')
        .some((line) => line.includes('company-deletion-step-dropped') && line.includes(companyId));
    await expect.poll(dropped, { timeout: 30_000, interval: 200 }).toBe(true);

    expect((await itemsNaming(companyId)).length).toBe(before);
    expect((await me(company)).status).toBe(200);
    expect((await login(company)).status).toBe(200);
    // Still counted: the company item is as sign-up made it, listed for the platform's administrators.
    const meta = await tableItem({ PK: `COMPANY#${companyId}`, SK: 'META' });
    expect(meta?.status).toBeUndefined();
    expect(meta?.GSI1PK).toBe('COMPANIES');
  });

  it('refuses a message without a function’s signature, or from a name that is not loopback', async () => {
    const company = await signUp({ companyName: 'Rebinding Target' });
    // Signed, but by a function that may not send to the queue.
    await expect(sendSigned(functionAccessKeyId('auth/me', 'read'), { companyId: company.company.id })).rejects.toMatchObject({
      $metadata: { httpStatusCode: 403 },
    });
    // Unsigned, from the stack's own address.
    expect(await postRaw({})).toBe(403);
    // A page whose name was pointed at 127.0.0.1 (DNS rebinding), even signed as the worker.
    const worker = functionAccessKeyId('jobs/company-deletion', 'sweep');
    expect(
      await postRaw({
        host: 'rebound.example',
        authorization: `AWS4-HMAC-SHA256 Credential=${worker}/20260101/us-east-1/sqs/aws4_request, SignedHeaders=host, Signature=00`,
      }),
    ).toBe(403);
    expect((await login(company)).status).toBe(200);
  });
});

describe('message retention', () => {
  const retentionOf = (account: Account) => callRoute(endpoints.getRetention, { token: account.tokens.accessToken });
  const setRetention = (account: Account, messageRetentionDays: unknown) =>
    callRoute(endpoints.updateRetention, { token: account.tokens.accessToken, body: unchecked({ messageRetentionDays }) });

  /** The TTL attribute of every message and call item of the company: calls are in its partition, messages in their conversation's. */
  async function expiries(companyId: string, conversationId: string) {
    const items = await companyItems(companyId, [conversationId]);
    return items
      .filter((i) => i.entity === 'MESSAGE' || i.entity === 'CALL')
      .map((i) => ({ entity: i.entity, createdAt: String(i.createdAt), expiresAt: i.expiresAt }));
  }

  it('keeps messages by default; once set, new messages and calls expire that many days after they are written', async () => {
    const company = await keptCompany();
    const companyId = company.owner.company.id;
    const expiriesNow = () => expiries(companyId, company.conversationId);
    expect((await retentionOf(company.owner)).body.data).toEqual({ retention: { messageRetentionDays: null } });
    const older = await expiriesNow();
    expect(older.length).toBeGreaterThanOrEqual(3);
    expect(older.every((i) => i.expiresAt === undefined)).toBe(true);

    expect((await setRetention(company.agent, 30)).status).toBe(403);
    const invalid = await setRetention(company.owner, 7);
    expect(invalid.status).toBe(400);
    expect(JSON.stringify(invalid.body.error)).toMatch(/30, 90, 365 days/);

    const saved = await setRetention(company.owner, 30);
    expect(saved.status).toBe(200);
    expect((await retentionOf(company.agent)).body.data.retention.messageRetentionDays).toBe(30);

    expect((await textIn(company.line, { from: company.contact.phoneNumber, body: 'Still there?' })).status).toBe(200);
    const newer = (await expiriesNow()).filter((i) => !older.some((o) => o.createdAt === i.createdAt));
    expect(newer).toHaveLength(1);
    const written = Date.parse(newer[0]?.createdAt ?? '');
    expect(newer[0]?.expiresAt).toBe(Math.floor(written / 1000) + 30 * 86_400);
    // Items written before the setting keep none (docs/product.md: Message retention).
    expect((await expiriesNow()).filter((i) => i.expiresAt === undefined)).toHaveLength(older.length);

    expect((await setRetention(company.owner, null)).body.data.retention.messageRetentionDays).toBeNull();
    expect((await textIn(company.line, { from: company.contact.phoneNumber, body: 'Hello again' })).status).toBe(200);
    expect((await expiriesNow()).filter((i) => i.expiresAt === undefined)).toHaveLength(older.length + 1);
  });
});
