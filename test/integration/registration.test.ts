import { describe, expect, it } from 'vitest';
import { callRoute, mailTo, newClientAddress, signUp, uniqueEmail, verificationToken, verifyEmail } from '../support/api';
import { endpoints } from '../support/endpoints';
import { PLATFORM_ADMIN_UNCLAIMED } from '../support/global-setup';

const register = (email: string, password: string, more: { name?: string; address?: string } = {}) =>
  callRoute(endpoints.register, {
    body: { companyName: 'Acme Support', name: more.name ?? 'Ada Lovelace', email, password },
    address: more.address ?? newClientAddress(),
  });

const login = (email: string, password: string) =>
  callRoute(endpoints.login, { body: { email, password }, address: newClientAddress() });

async function latestLink(email: string): Promise<string> {
  const mail = (await mailTo(email)).at(-1);
  return verificationToken(mail as NonNullable<typeof mail>);
}

describe('registering an address someone else registered first (pre-account hijacking)', () => {
  it('replaces the unverified account: the stranger’s password and link stop working', async () => {
    const victim = uniqueEmail('victim');
    expect((await register(victim, 'attacker chose this', { name: 'Mallory' })).status).toBe(201);
    const attackerLink = await latestLink(victim);

    const own = await register(victim, 'victim’s own password');
    expect(own.status).toBe(201);
    expect(own.body.message).toBe('Registration successful. Please check your email to verify your account.');
    const victimLink = await latestLink(victim);

    expect((await verifyEmail(attackerLink)).status).toBe(400);
    const verified = await verifyEmail(victimLink);
    expect(verified.status).toBe(200);
    expect(verified.body.data.user.name).toBe('Ada Lovelace');

    expect((await login(victim, 'attacker chose this')).status).toBe(401);
    expect((await login(victim, 'victim’s own password')).status).toBe(200);
  });

  it('never tells anyone before verification that an address belongs to a platform administrator', async () => {
    const stranger = await register(PLATFORM_ADMIN_UNCLAIMED, 'attacker chose this');
    expect(stranger.status).toBe(201);
    expect(stranger.body.data.user.isPlatformAdmin).toBe(false);
    // The administrator registers for real; their own link makes them one, the stranger's password is void.
    expect((await register(PLATFORM_ADMIN_UNCLAIMED, 'the operator’s password')).status).toBe(201);
    const verified = await verifyEmail(await latestLink(PLATFORM_ADMIN_UNCLAIMED));
    expect(verified.body.data.user.isPlatformAdmin).toBe(true);
    expect((await login(PLATFORM_ADMIN_UNCLAIMED, 'attacker chose this')).status).toBe(401);
  });

  it('answers alike for a verified address, and mails its owner instead of revealing the account', async () => {
    const owner = await signUp();
    const fresh = uniqueEmail('fresh');
    const [taken, unused] = await Promise.all([register(owner.email, 'another password'), register(fresh, 'another password')]);
    expect(taken.status).toBe(201);
    expect(unused.status).toBe(201);
    const shape = (r: typeof taken) => ({
      ...r.body,
      data: { ...r.body.data, user: { ...r.body.data.user, id: '', companyId: '', email: '' }, company: { id: '' } },
    });
    expect(shape(taken)).toEqual(shape(unused));
    expect(taken.body.data.company.id).not.toBe(owner.company.id);

    const mails = await mailTo(owner.email);
    expect(mails.at(-1)?.subject).toBe('You already have a Switchboard account');
    expect(mails.at(-1)?.text).not.toMatch(/verify-email/);
    // Nothing changed: the owner's password still works, the stranger's does not.
    expect((await login(owner.email, owner.password)).status).toBe(200);
    expect((await login(owner.email, 'another password')).status).toBe(401);
  });
});

describe('registration abuse', () => {
  it('mails a greeting that never echoes what a stranger typed', async () => {
    const email = uniqueEmail('phished');
    const name = 'Your account is suspended, log in at https://evil.example/login';
    expect((await register(email, 'long enough pw', { name })).status).toBe(201);
    const [mail] = await mailTo(email);
    for (const body of [mail?.text, mail?.html]) {
      expect(body).toMatch(/^(<!doctype html>.*)?Hello,/s);
      expect(body).not.toMatch(/suspended|evil\.example/);
    }
  });

  it('is rate limited per e-mail address', async () => {
    const email = uniqueEmail('flood');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await register(email, 'long enough pw')).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
    expect(await mailTo(email)).toHaveLength(3);
  });

  it('is rate limited per source address', async () => {
    const address = newClientAddress();
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof register>> | undefined;
    for (let i = 0; i < 11; i++) {
      last = await register(uniqueEmail('spree'), 'long enough pw', { address });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...Array(10).fill(201), 429]);
    expect(last?.body.error.message).toMatch(/^Too many registrations\. Please try again in \d+ minutes?\.$/);
  });
});
