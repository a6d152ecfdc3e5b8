import { describe, expect, it } from 'vitest';
import { callRoute, newClientAddress, signUp, uniqueEmail } from '../support/api';
import { endpoints } from '../support/endpoints';

const login = (email: string, password: string, address: string) =>
  callRoute(endpoints.login, { body: { email, password }, address });

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

  it('lets no parallel burst past the limit: every attempt is counted before its password is checked', async () => {
    const account = await signUp();
    const address = newClientAddress();
    const burst = await Promise.all(Array.from({ length: 17 }, (_, i) => login(account.email, `wrong ${i}`, address)));
    const statuses = burst.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(7).fill(429)]);
    // The 18th, with the right password, is not checked either.
    expect((await login(account.email, account.password, address)).status).toBe(429);
  });

  it('does not let a stranger lock the owner out by failing on purpose', async () => {
    const account = await signUp();
    const stranger = newClientAddress();
    for (let i = 0; i < 12; i++) await login(account.email, `wrong ${i}`, stranger);
    expect((await login(account.email, 'wrong again', stranger)).status).toBe(429);
    expect((await login(account.email, account.password, newClientAddress())).status).toBe(200);
  });

  it('slows down guessing spread over many addresses: one attempt per growing delay', async () => {
    const account = await signUp();
    for (let i = 0; i < 10; i++) expect((await login(account.email, `wrong ${i}`, newClientAddress())).status).toBe(401);
    const burst = await Promise.all(Array.from({ length: 5 }, (_, i) => login(account.email, `spread ${i}`, newClientAddress())));
    const statuses = burst.map((r) => r.status);
    expect(
      statuses.every((status) => status === 401 || status === 429),
      String(statuses),
    ).toBe(true);
    // One attempt is judged per delay (LOGIN_DELAY_BASE_MS after the 11th failure, doubling after each);
    // a burst that a busy machine spreads over more than that second may have a second one judged.
    expect(statuses.filter((status) => status === 429).length, String(statuses)).toBeGreaterThanOrEqual(3);
    const waited = burst.find((r) => r.status === 429);
    expect(waited?.body.error.message).toMatch(/^Too many failed sign-in attempts\. Please try again in \d+ seconds?\.$/);
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
