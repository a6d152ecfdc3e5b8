import { describe, expect, it } from 'vitest';
import {
  callRoute,
  mailTo,
  newClientAddress,
  signUp,
  stack,
  unchecked,
  uniqueEmail,
  verificationToken,
  verifyEmail,
} from '../support/api';
import { endpoints } from '../support/endpoints';

describe('sign-up to signed-in, through the local gateway', () => {
  it('registers, mails a link, verifies, signs in, refreshes and reads /me', async () => {
    const email = uniqueEmail('Flow');
    const address = newClientAddress();

    const registered = await callRoute(endpoints.register, {
      body: { companyName: 'Globex Helpdesk', name: 'Grace Hopper', email, password: 'long enough pw' },
      address,
    });
    expect(registered.status).toBe(201);
    expect(registered.body.success).toBe(true);
    expect(registered.body.message).toMatch(/check your email/i);
    expect(registered.body.data.emailSent).toBe(true);
    expect(registered.body.data.company.name).toBe('Globex Helpdesk');
    expect(registered.body.data.user).toMatchObject({
      name: 'Grace Hopper',
      email: email.toLowerCase(),
      emailVerified: false,
      role: 'OWNER',
      companyId: registered.body.data.company.id,
    });
    expect(JSON.stringify(registered.body)).not.toMatch(/passwordHash|scrypt/);

    const [mail] = await mailTo(email.toLowerCase());
    expect(mail?.subject).toBe('Verify your email for Switchboard');
    // The token rides in the fragment, which browsers never send: no server or CDN log holds it.
    expect(mail?.text).toContain(`${stack().env.APP_URL}/verify-email#token=`);
    expect(mail?.html).toContain(`${stack().env.APP_URL}/verify-email#token=`);
    const token = verificationToken(mail as NonNullable<typeof mail>);
    expect(Buffer.from(token, 'base64url')).toHaveLength(16);

    const beforeVerify = await callRoute(endpoints.login, { body: { email, password: 'long enough pw' }, address });
    expect(beforeVerify.status).toBe(403);
    expect(beforeVerify.body.error.message).toContain('verify your email');

    const verified = await verifyEmail(token);
    expect(verified.status).toBe(200);
    expect(verified.body.message).toMatch(/verified/i);
    expect(verified.body.data.user.emailVerified).toBe(true);
    expect(verified.body.data.tokens.accessToken).toMatch(/^eyJ/);

    const login = await callRoute(endpoints.login, { body: { email: email.toUpperCase(), password: 'long enough pw' }, address });
    expect(login.status).toBe(200);
    expect(Object.keys(login.body.data.user).sort()).toEqual(
      ['avatarUrl', 'companyId', 'email', 'emailVerified', 'id', 'isPlatformAdmin', 'lastActiveAt', 'name', 'role'].sort(),
    );
    expect(login.body.data.user.lastActiveAt).not.toBeNull();
    expect(login.body.data.company).toEqual({ id: registered.body.data.company.id, name: 'Globex Helpdesk' });

    const refreshed = await callRoute(endpoints.refresh, { body: { refreshToken: login.body.data.tokens.refreshToken } });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.data.tokens.refreshToken).not.toBe(login.body.data.tokens.refreshToken);

    const me = await callRoute(endpoints.me, { token: refreshed.body.data.tokens.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.data.user.email).toBe(email.toLowerCase());
    expect(me.body.data.company.name).toBe('Globex Helpdesk');
  });

  it('answers health once every part is ready', async () => {
    const res = await callRoute(endpoints.health);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { status: 'ok' } });
  });

  it('names platform administrators from the operator setting, never from sign-up', async () => {
    const admin = await signUp({ email: 'admin@platform.test' });
    expect(admin.user.isPlatformAdmin).toBe(true);
    const other = await signUp();
    expect(other.user.isPlatformAdmin).toBe(false);
    const extra = await callRoute(endpoints.register, {
      body: unchecked({
        companyName: 'X',
        name: 'Y',
        email: uniqueEmail(),
        password: 'long enough pw',
        isPlatformAdmin: true,
        role: 'ADMIN',
      }),
      address: newClientAddress(),
    });
    expect(extra.status).toBe(201);
    expect(extra.body.data).toMatchObject({ user: { isPlatformAdmin: false, role: 'OWNER' } });
  });
});
