import { describe, expect, it } from 'vitest';
import { api, callRoute, newClientAddress, signUp, unchecked, uniqueEmail } from '../support/api';
import { endpoints } from '../support/endpoints';

const validRegistration = () => ({
  companyName: 'Initech',
  name: 'Peter Gibbons',
  email: uniqueEmail(),
  password: 'long enough pw',
});

describe('client mistakes get a 4xx envelope with a message', () => {
  it('refuses a short password with the SPEC wording', async () => {
    const res = await callRoute(endpoints.register, { body: { ...validRegistration(), password: 'short' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_FAILED', message: 'Password must be at least 8 characters long' },
    });
    expect(res.body.error.details).toEqual({ fields: { password: 'Password must be at least 8 characters long' } });
  });

  it('names every missing field', async () => {
    const res = await callRoute(endpoints.register, { body: unchecked({}) });
    expect(res.status).toBe(400);
    expect(res.body.error.details?.fields).toEqual({
      companyName: 'Company name is required',
      name: 'Full name is required',
      email: 'Email is required',
      password: 'Password is required',
    });
  });

  it('refuses blank names, a malformed e-mail and wrong types', async () => {
    const res = await callRoute(endpoints.register, {
      body: unchecked({ companyName: '   ', name: 42, email: 'not-an-email', password: 'long enough pw' }),
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details?.fields).toEqual({
      companyName: 'Company name is required',
      name: 'Full name must be text',
      email: 'Enter a valid email address',
    });
  });

  it('answers malformed JSON, a non-object body and an unsupported content type', async () => {
    const malformed = await callRoute(endpoints.login, {
      rawBody: '{"email": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toEqual({ code: 'INVALID_JSON', message: 'Request body is not valid JSON' });

    const array = await callRoute(endpoints.login, { body: unchecked([1, 2]) });
    expect(array.status).toBe(400);
    expect(array.body.error.message).toBe('Request body must be a JSON object');

    const xml = await callRoute(endpoints.login, { rawBody: '<login/>', headers: { 'content-type': 'application/xml' } });
    expect(xml.status).toBe(415);
    expect(xml.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('reads form-encoded bodies, which HTTP API delivers base64-encoded', async () => {
    const account = await signUp();
    const form = new URLSearchParams({ email: account.email, password: account.password }).toString();
    const res = await callRoute(endpoints.login, {
      rawBody: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      address: newClientAddress(),
    });
    expect(res.status).toBe(200);
    expect(res.body.data.user.email).toBe(account.email);
  });

  it('refuses an oversized body with 413', async () => {
    const res = await callRoute(endpoints.login, { body: { email: uniqueEmail(), password: 'x'.repeat(70 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers an unknown route with 404 and a known path with the wrong method with 405', async () => {
    // A path no route has: typed by hand, since no endpoint names it.
    const unknown = await api('/api/v1/does-not-exist');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });

    const wrongMethod = await api(endpoints.login.path, { method: 'GET' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    expect(wrongMethod.body.error.message).toContain('POST');
  });
});
