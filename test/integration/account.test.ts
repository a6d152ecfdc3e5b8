import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { hashOpaqueToken } from '../../functions/auth/opaque-tokens';
import { keys } from '../../functions/lib/table';
import { PASSWORD_RESET_LIMIT } from '../../shared/constants';
import {
  type Account,
  callRoute,
  mailTo,
  newClientAddress,
  refresh,
  type SentMail,
  signIn,
  signUp,
  unchecked,
  uniqueEmail,
} from '../support/api';
import { endpoints } from '../support/endpoints';
import { testTable } from '../support/table';
import { addTeamMember } from '../support/team';

/** Account self-service (docs/product.md: Account self-service) and what a removed member is told. */

const forgot = (email: string, address = newClientAddress()) => callRoute(endpoints.forgotPassword, { body: { email }, address });

const resetTokenOf = (mail: SentMail): string => {
  const match = /\/reset-password#token=([\w-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`No reset link in: ${mail.text}`);
  return match[1];
};

const resetMails = async (email: string) => (await mailTo(email)).filter((m) => m.subject.includes('Reset'));

async function mailedResetToken(email: string): Promise<string> {
  expect((await forgot(email)).status).toBe(202);
  const mail = (await resetMails(email)).at(-1);
  if (!mail) throw new Error(`no reset mail for ${email}`);
  return resetTokenOf(mail);
}

const reset = (token: string, password: string) => callRoute(endpoints.resetPassword, { body: { token, password } });

const login = (email: string, password: string) =>
  callRoute(endpoints.login, { body: { email, password }, address: newClientAddress() });

const me = (account: Pick<Account, 'tokens'>) => callRoute(endpoints.me, { token: account.tokens.accessToken });

describe('forgot password', () => {
  it('answers an address with an account and one without alike; only the account gets a mail, with a link to /reset-password', async () => {
    const account = await signUp();
    const unknown = uniqueEmail('nobody');
    const [known, stranger] = await Promise.all([forgot(account.email), forgot(unknown)]);
    expect(known.status).toBe(202);
    expect(stranger.status).toBe(202);
    expect(stranger.body).toEqual(known.body);
    expect(known.body.message).toBe(
      'If an account uses that email, a link to reset its password is on its way. It works for 1 hour.',
    );

    const [mail] = await resetMails(account.email);
    expect(mail?.subject).toBe('Reset your Switchboard password');
    expect(mail?.text).toMatch(/\/reset-password#token=[\w-]+/);
    expect(mail?.text).toContain('expires in 1 hour');
    expect(await mailTo(unknown)).toEqual([]);
  });

  it('sets the new password and ends every session of the account; the old password stops working', async () => {
    const account = await signUp();
    const otherDevice = await signIn(account);
    const token = await mailedResetToken(account.email);

    const res = await reset(token, 'a brand new password');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Your password has been changed. Sign in with your new password.');

    for (const session of [account, otherDevice]) {
      expect((await me(session)).body.error?.code).toBe('SESSION_ENDED');
      expect((await refresh(session.tokens.refreshToken)).status).toBe(401);
    }
    expect((await login(account.email, account.password)).body.error?.code).toBe('INVALID_CREDENTIALS');
    expect((await login(account.email, 'a brand new password')).status).toBe(200);
  });

  it('works once', async () => {
    const account = await signUp();
    const token = await mailedResetToken(account.email);
    expect((await reset(token, 'first new password')).status).toBe(200);
    const again = await reset(token, 'second new password');
    expect(again.status).toBe(400);
    expect(again.body.error).toEqual({
      code: 'INVALID_TOKEN',
      message: 'This password reset link is invalid or has already been used. Ask for a new one.',
    });
    expect((await login(account.email, 'first new password')).status).toBe(200);
  });

  it('expires after an hour, and then changes nothing', async () => {
    const account = await signUp();
    const token = await mailedResetToken(account.email);
    const { client, tableName } = testTable();
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.passwordReset(hashOpaqueToken(token)),
        UpdateExpression: 'SET validUntil = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    const expired = await reset(token, 'too late password');
    expect(expired.status).toBe(400);
    expect(expired.body.error?.message).toBe('This password reset link has expired. Ask for a new one.');
    expect((await login(account.email, account.password)).status).toBe(200);
  });

  it('honours only the latest mailed link', async () => {
    const account = await signUp();
    const first = await mailedResetToken(account.email);
    const second = await mailedResetToken(account.email);
    expect((await reset(first, 'from the first mail')).status).toBe(400);
    expect((await reset(second, 'from the second mail')).status).toBe(200);
  });

  it('refuses a short new password with the field’s message, leaving the link usable', async () => {
    const account = await signUp();
    const token = await mailedResetToken(account.email);
    const short = await reset(token, 'short');
    expect(short.status).toBe(400);
    expect(short.body.error?.details?.fields).toEqual({
      password: expect.stringMatching(/^Password must be at least \d+ characters long$/),
    });
    expect((await reset(token, 'long enough now')).status).toBe(200);
  });

  it('is limited per address, the same for an address without an account', async () => {
    for (const email of [(await signUp()).email, uniqueEmail('nobody')]) {
      for (let i = 0; i < PASSWORD_RESET_LIMIT; i++) expect((await forgot(email)).status).toBe(202);
      const over = await forgot(email);
      expect(over.status).toBe(429);
      expect(over.body.error?.message).toMatch(/^Too many password reset emails requested\. Please try again in \d+ minutes?\.$/);
    }
  });

  it('is limited per client, whatever the addresses', async () => {
    const client = newClientAddress();
    for (let i = 0; i < PASSWORD_RESET_LIMIT * 4; i++) expect((await forgot(uniqueEmail('spray'), client)).status).toBe(202);
    expect((await forgot(uniqueEmail('spray'), client)).status).toBe(429);
    expect((await forgot(uniqueEmail('spray'))).status).toBe(202);
  });
});

describe('password change', () => {
  const change = (account: Pick<Account, 'tokens'>, currentPassword: string, newPassword: string) =>
    callRoute(endpoints.changePassword, { token: account.tokens.accessToken, body: { currentPassword, newPassword } });

  it('needs the current password; a wrong one is a field error, not a sign-out', async () => {
    const account = await signUp();
    const wrong = await change(account, 'not my password', 'another good password');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error?.details?.fields).toEqual({ currentPassword: 'Current password is incorrect' });
    expect((await me(account)).status).toBe(200);
    expect((await login(account.email, account.password)).status).toBe(200);
  });

  it('changes it, keeps this session and ends every other one', async () => {
    const account = await signUp();
    const otherDevice = await signIn(account);
    const res = await change(account, account.password, 'another good password');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Your password was changed. You were signed out everywhere else.');

    expect((await me(account)).status).toBe(200);
    expect((await refresh(account.tokens.refreshToken)).status).toBe(200);
    expect((await me(otherDevice)).body.error?.code).toBe('SESSION_ENDED');
    expect((await refresh(otherDevice.tokens.refreshToken)).status).toBe(401);
    expect((await login(account.email, account.password)).status).toBe(401);
    expect((await login(account.email, 'another good password')).status).toBe(200);
  });

  it('makes a reset link mailed earlier useless', async () => {
    const account = await signUp();
    const token = await mailedResetToken(account.email);
    expect((await change(account, account.password, 'another good password')).status).toBe(200);
    expect((await reset(token, 'from the old mail')).status).toBe(400);
  });
});

describe('profile name', () => {
  it('is changed by the person, trimmed, and shown wherever they are', async () => {
    const owner = await signUp({ name: 'Ada Lovelace' });
    const agent = await addTeamMember(owner, { name: 'Grace Hopper' });
    const res = await callRoute(endpoints.updateProfile, {
      token: agent.tokens.accessToken,
      body: { name: '  Grace B. Hopper ' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({ id: agent.user.id, name: 'Grace B. Hopper', email: agent.email });
    expect((await me(agent)).body.data?.user.name).toBe('Grace B. Hopper');
    const team = await callRoute(endpoints.listUsers, { token: owner.tokens.accessToken });
    expect(team.body.data?.users.find((u) => u.id === agent.user.id)?.name).toBe('Grace B. Hopper');
  });

  it('refuses an empty name with the field’s message', async () => {
    const account = await signUp();
    const res = await callRoute(endpoints.updateProfile, { token: account.tokens.accessToken, body: { name: '   ' } });
    expect(res.status).toBe(400);
    expect(res.body.error?.details?.fields).toEqual({ name: 'Full name is required' });
    const missing = await callRoute(endpoints.updateProfile, { token: account.tokens.accessToken, body: unchecked({}) });
    expect(missing.status).toBe(400);
  });
});

describe('company name', () => {
  const rename = (who: Pick<Account, 'tokens'>, name: string) =>
    callRoute(endpoints.renameCompany, { token: who.tokens.accessToken, body: { name } });

  it('is changed by the owner; every member sees it, and no other company changes', async () => {
    const owner = await signUp({ companyName: 'Acme Support' });
    const agent = await addTeamMember(owner);
    const other = await signUp({ companyName: 'Acme Support' });
    const res = await rename(owner, 'Acme Customer Care');
    expect(res.status).toBe(200);
    expect(res.body.data.company).toEqual({ id: owner.company.id, name: 'Acme Customer Care' });
    expect((await me(agent)).body.data?.company.name).toBe('Acme Customer Care');
    expect((await me(other)).body.data?.company.name).toBe('Acme Support');
  });

  it('is refused to admins and agents', async () => {
    const owner = await signUp({ companyName: 'Acme Support' });
    for (const role of ['ADMIN', 'AGENT'] as const) {
      const member = await addTeamMember(owner, { role });
      const res = await rename(member, 'Taken Over');
      expect(res.status).toBe(403);
      expect(res.body.error?.message).toBe('Only the owner can do this.');
    }
    expect((await me(owner)).body.data?.company.name).toBe('Acme Support');
  });

  it('refuses an empty name', async () => {
    const owner = await signUp();
    const res = await rename(owner, ' ');
    expect(res.status).toBe(400);
    expect(res.body.error?.details?.fields).toEqual({ name: 'Company name is required' });
  });
});

describe('a removed member', () => {
  const removedSentence = (company: string) =>
    `You no longer have access to ${company}. Ask an owner or admin to invite you again.`;

  async function removedAgent() {
    const owner = await signUp({ companyName: 'Umbrella Support' });
    const agent = await addTeamMember(owner);
    const removed = await callRoute(endpoints.removeUser, { params: { id: agent.user.id }, token: owner.tokens.accessToken });
    expect(removed.status).toBe(200);
    return { owner, agent };
  }

  it('is told at sign-in, with the right password only, where they no longer have access', async () => {
    const { agent } = await removedAgent();
    const res = await login(agent.email, agent.password);
    expect(res.status).toBe(401);
    expect(res.body.error).toEqual({ code: 'ACCESS_REMOVED', message: removedSentence('Umbrella Support') });

    // A wrong password learns nothing more than for an address that never had an account.
    const wrong = await login(agent.email, 'a guess');
    const unknown = await login(uniqueEmail('nobody'), 'a guess');
    expect(wrong.body.error).toEqual({ code: 'INVALID_CREDENTIALS', message: 'Invalid email or password' });
    expect(unknown.body.error).toEqual(wrong.body.error);
  });

  it('is told the same in the open tab: its refresh answers the sentence, not "session ended"', async () => {
    const { agent } = await removedAgent();
    const res = await refresh(agent.tokens.refreshToken);
    expect(res.status).toBe(401);
    expect(res.body.error).toEqual({ code: 'ACCESS_REMOVED', message: removedSentence('Umbrella Support') });
  });

  it('names the company as it is called now', async () => {
    const { owner, agent } = await removedAgent();
    await callRoute(endpoints.renameCompany, { token: owner.tokens.accessToken, body: { name: 'Umbrella Care' } });
    expect((await login(agent.email, agent.password)).body.error?.message).toBe(removedSentence('Umbrella Care'));
  });

  it('signs in as usual once invited again and joined', async () => {
    const { owner, agent } = await removedAgent();
    const again = await addTeamMember(owner, { email: agent.email });
    expect((await login(agent.email, again.password)).status).toBe(200);
  });

  it('gets no reset mail: the address has no account any more', async () => {
    const { agent } = await removedAgent();
    expect((await forgot(agent.email)).status).toBe(202);
    expect(await resetMails(agent.email)).toEqual([]);
  });
});
