import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../functions/lib/table';
import { type Account, callRoute, signUp, stack } from '../support/api';
import { endpoints } from '../support/endpoints';
import { openSocket } from '../support/realtime';
import { testTable } from '../support/table';
import { addTeamMember } from '../support/team';

/**
 * Last Active (docs/product.md §2 Team, §3 User.lastActiveAt) stays current for someone using the app: their
 * open tab's heartbeats record it once a minute, and closing the tab records the moment they left.
 */
type Accounts = typeof import('../../functions/auth/accounts');
let markActive: Accounts['markActive'];

beforeAll(async () => {
  // markActive runs here as in a Lambda, against the stack's table.
  Object.assign(process.env, stack().env);
  ({ markActive } = await import('../../functions/auth/accounts'));
});

const MINUTE = 60_000;

async function storedLastActive(account: Pick<Account, 'company' | 'user'>): Promise<string | null> {
  const { client, tableName } = testTable();
  const { Item } = await client.send(
    new GetCommand({ TableName: tableName, Key: keys.user(account.company.id, account.user.id), ConsistentRead: true }),
  );
  return (Item?.lastActiveAt as string | null) ?? null;
}

/** As if the person signed in long ago and has used the app since without signing in again. */
async function setLastActive(account: Pick<Account, 'company' | 'user'>, at: Date | null) {
  const { client, tableName } = testTable();
  await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.user(account.company.id, account.user.id),
      UpdateExpression: 'SET lastActiveAt = :at',
      ExpressionAttributeValues: { ':at': at?.toISOString() ?? null },
    }),
  );
}

async function lastActiveOnTeamPage(viewer: Account, userId: string) {
  const res = await callRoute(endpoints.listUsers, { token: viewer.tokens.accessToken });
  expect(res.status).toBe(200);
  return res.body.data.users.find((u) => u.id === userId)?.lastActiveAt;
}

describe('Last Active', () => {
  let owner: Account;
  let colleague: Account;
  beforeAll(async () => {
    owner = await signUp({ companyName: 'Active Co' });
    colleague = await addTeamMember(owner, { name: 'Grace Hopper' });
  });

  it('an open tab keeps it current: its first heartbeat records the user as active now', async () => {
    await setLastActive(colleague, new Date(Date.now() - 10 * MINUTE));
    const socket = await openSocket(colleague);
    const before = new Date().toISOString();
    await socket.beat();
    const recorded = await lastActiveOnTeamPage(owner, colleague.user.id);
    expect((recorded ?? '') >= before).toBe(true);
    expect(await storedLastActive(colleague)).toBe(recorded);
    await socket.close();
  });

  it('closing the tab records the moment the user left, before the others hear it', async () => {
    // Someone with no socket of an earlier test: the departure heard is this one's.
    const leaving = await addTeamMember(owner, { name: 'Katherine Johnson' });
    const watcher = await openSocket(owner);
    await watcher.beat();
    const socket = await openSocket(leaving);
    await socket.beat();
    await setLastActive(leaving, new Date(Date.now() - 10 * MINUTE));
    const before = new Date().toISOString();
    await socket.close();
    await watcher.next('user_left', (e) => e.data.id === leaving.user.id);
    expect(((await lastActiveOnTeamPage(owner, leaving.user.id)) ?? '') >= before).toBe(true);
    await watcher.close();
  });

  it('a heartbeat records only the socket’s own user, whatever user it names', async () => {
    const other = await signUp({ companyName: 'Other Co' });
    const long = new Date(Date.now() - 10 * MINUTE);
    await setLastActive(other, long);
    await setLastActive(owner, long);
    const socket = await openSocket(owner);
    socket.send({ type: 'heartbeat', data: { userId: other.user.id, timestamp: new Date().toISOString() } });
    await socket.next('heartbeat_ack');
    expect(await storedLastActive(other)).toBe(long.toISOString());
    expect(await storedLastActive(owner)).not.toBe(long.toISOString());
    await socket.close();
  });

  it('is written once a minute at most, never moved back, and never for a removed user', async () => {
    const account = await signUp({ companyName: 'Busy Co' });
    const minute = Math.floor(Date.now() / MINUTE) * MINUTE;
    const at = (offset: number) => new Date(minute + offset);
    await setLastActive(account, null);
    const { id: userId } = account.user;
    const companyId = account.company.id;

    // A user who never was active (null) is written; the rest of that minute is not.
    expect(await markActive(companyId, userId, { now: at(10_000) })).toBe(true);
    expect(await markActive(companyId, userId, { now: at(50_000) })).toBe(false);
    expect(await storedLastActive(account)).toBe(at(10_000).toISOString());
    // The next minute is.
    expect(await markActive(companyId, userId, { now: at(MINUTE + 5_000) })).toBe(true);
    expect(await storedLastActive(account)).toBe(at(MINUTE + 5_000).toISOString());
    // Leaving records its moment, within the minute too, but never an earlier one.
    expect(await markActive(companyId, userId, { now: at(MINUTE + 20_000), everyMinute: false })).toBe(true);
    expect(await markActive(companyId, userId, { now: at(MINUTE + 15_000), everyMinute: false })).toBe(false);
    expect(await storedLastActive(account)).toBe(at(MINUTE + 20_000).toISOString());

    // Removed from the team (or a user id the company does not have): nothing is written or created.
    const removed = await addTeamMember(account, { name: 'Gone Soon' });
    expect(
      (await callRoute(endpoints.removeUser, { params: { id: removed.user.id }, token: account.tokens.accessToken })).status,
    ).toBe(200);
    expect(await markActive(companyId, removed.user.id, { now: at(10 * MINUTE) })).toBe(false);
    expect(await markActive(companyId, 'no-such-user', { now: at(10 * MINUTE) })).toBe(false);
    expect(await storedLastActive({ company: account.company, user: { ...account.user, id: 'no-such-user' } })).toBeNull();
  });
});
