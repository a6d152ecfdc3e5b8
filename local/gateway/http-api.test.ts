import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpContract } from '../../shared/contract/route';
import { byStaticFirst, MAX_INVOCATION_REQUEST_BYTES, MAX_INVOCATION_RESPONSE_BYTES, routeFor } from './http-api';
import { get, post, startTestGateway, type TestGateway } from './test-gateway';

describe('the HTTP API', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  describe('payload 2.0 events, as an HTTP API builds them', () => {
    it('comma-joins a repeated query parameter and keeps the query as sent in rawQueryString', async () => {
      const res = JSON.parse((await get(`${gw.url}/nothing?tag=a&tag=b%2Cc&page=2`)).body);
      expect(res.queryStringParameters).toEqual({ tag: 'a,b,c', page: '2' });
      expect(res.rawQueryString).toBe('tag=a&tag=b%2Cc&page=2');
    });

    it('hands over text bodies as text, and any other (no Content-Type, a form, octets) base64-encoded', async () => {
      const sent = async (headers: Record<string, string>) => {
        const { body, isBase64Encoded } = JSON.parse((await post(`${gw.url}/echo`, 'a=1&b=2', headers)).body);
        return { body, isBase64Encoded };
      };
      const base64 = { body: Buffer.from('a=1&b=2').toString('base64'), isBase64Encoded: true };
      const text = { body: 'a=1&b=2', isBase64Encoded: false };
      expect(await sent({})).toEqual(base64);
      expect(await sent({ 'content-type': 'application/x-www-form-urlencoded' })).toEqual(base64);
      expect(await sent({ 'content-type': 'application/octet-stream' })).toEqual(base64);
      expect(await sent({ 'content-type': 'text/plain; charset=utf-8' })).toEqual(text);
      expect(await sent({ 'content-type': 'application/json' })).toEqual(text);
      expect(await sent({ 'content-type': 'application/xml' })).toEqual(text);
    });

    it("answers 413 for a request whose event is over Lambda's 6 MB, its body counted base64-encoded", async () => {
      // 4.5 MB of octets is 6 MB base64-encoded: over, though the body itself is well under.
      const over = Buffer.alloc((MAX_INVOCATION_REQUEST_BYTES / 4) * 3);
      expect(await post(`${gw.url}/echo`, over, { 'content-type': 'application/octet-stream' })).toEqual({
        status: 413,
        body: JSON.stringify({ message: 'Request Entity Too Large' }),
      });
      const under = Buffer.alloc(4 * 1024 * 1024);
      const res = await post(`${gw.url}/echo`, under, { 'content-type': 'application/octet-stream' });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toMatchObject({ bodyLength: under.toString('base64').length, isBase64Encoded: true });
    });

    it("answers a function's answer over Lambda's 6 MB as a function error", async () => {
      const over = await get(`${gw.url}/large?bytes=${MAX_INVOCATION_RESPONSE_BYTES}`);
      expect(over).toEqual({ status: 500, body: JSON.stringify({ message: 'Internal Server Error' }) });
      const under = await get(`${gw.url}/large?bytes=${5 * 1024 * 1024}`);
      expect(under.status).toBe(200);
      expect(under.body).toHaveLength(5 * 1024 * 1024);
    });
  });

  describe('malformed paths', () => {
    it.each(['/api/v1/inboxes/%', '/api/v1/inboxes/%E0%A4%A', '/%'])(
      'answers %s, not valid URL encoding, with a 4xx envelope',
      async (path) => {
        const res = await get(`${gw.url}${path}`);
        expect(res.status).toBe(400);
        expect(JSON.parse(res.body)).toMatchObject({ success: false, error: { code: 'BAD_REQUEST' } });
      },
    );
  });
});

describe('routes, as API Gateway picks them', () => {
  const entry = (method: 'GET' | 'POST', path: string) => ({
    contract: httpContract({ method, path, auth: 'public' }),
    handler: path,
    table: 'none' as const,
    capabilities: [],
  });
  const routes = [entry('GET', '/inboxes/{id}'), entry('GET', '/inboxes/mine'), entry('POST', '/inboxes')];

  it('matches method and path, a static segment over a parameter whatever the order listed', () => {
    const ordered = byStaticFirst(routes);
    expect(routeFor(ordered, 'GET', '/inboxes/mine')?.handler).toBe('/inboxes/mine');
    expect(routeFor(ordered, 'GET', '/inboxes/i-1')?.handler).toBe('/inboxes/{id}');
    expect(routeFor(ordered, 'GET', '/inboxes')).toBeUndefined();
    expect(routeFor(ordered, 'POST', '/inboxes')?.handler).toBe('/inboxes');
  });

  it('matches nothing for a badly encoded path (the fallback answers it)', () => {
    expect(routeFor(routes, 'GET', '/inboxes/%E0%A4%A')).toBeUndefined();
  });
});
