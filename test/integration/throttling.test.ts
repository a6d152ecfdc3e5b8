import { describe, expect, it } from 'vitest';
import { api, newClientAddress, signUp, uniqueEmail } from '../support/api';

const login = (email: string, password: string, address: string) =>
  api('/api/v1/auth/login', { body: { email, password }, address });

describe('sign-in', () => {
  it('answers a wrong password and an unknown address alike', async () => {
    const account = await signUp();
    const wrong = await login(account.email, 'not the password', newClientAddress());
    const unknown = await login(uniqueEmail('ghost'), 'whatever pw', newClientAddress());
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error.message).toBe('Invalid email or password');
  });

  it('locks an account after 10 failures in 15 minutes, even for the right password', async () => {
    const account = await signUp();
    for (let i = 0; i < 10; i++) {
      // A different address each time: the account limit holds however the attempts are spread.
      expect((await login(account.email, `wrong ${i}`, newClientAddress())).status).toBe(401);
    }
    const locked = await login(account.email, account.password, newClientAddress());
    expect(locked.status).toBe(429);
    expect(locked.body.error.message).toMatch(/^Too many failed sign-in attempts\. Please try again in \d+ minutes?\.$/);
  });

  it('locks an address after 10 failures in 15 minutes across accounts', async () => {
    const address = newClientAddress();
    for (let i = 0; i < 10; i++) {
      expect((await login(uniqueEmail('spray'), 'wrong password', address)).status).toBe(401);
    }
    const account = await signUp();
    expect((await login(account.email, account.password, address)).status).toBe(429);
    expect((await login(account.email, account.password, newClientAddress())).status).toBe(200);
  });
});
