import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { httpContract } from '../../shared/contract/route';
import { AppError, tooManyRequests } from './app-error';
import { ORIGIN_SECRET_HEADER } from './config';
import { defineHandler } from './define-handler';

/** The tests' own contracts, outside the API's paths: no route of the product's has them. */
const contract = httpContract({
  method: 'POST',
  path: '/test',
  auth: 'public',
  body: z.object({ name: z.string() }),
});

function event(body?: string, headers: Record<string, string> = {}, isBase64Encoded = false): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: `${contract.method} ${contract.path}`,
    rawPath: contract.path,
    rawQueryString: '',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    isBase64Encoded,
    requestContext: { http: { method: contract.method, path: contract.path, sourceIp: '192.0.2.1' } },
  } as unknown as APIGatewayProxyEventV2;
}
const context = { awsRequestId: 'req-1' } as Context;

afterEach(() => vi.restoreAllMocks());

describe('defineHandler', () => {
  it('answers an unexpected failure with a generic 500 and logs the cause as one JSON line', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const handler = defineHandler(contract, async () => {
      throw new Error('secret database detail');
    });
    const res = await handler(event('{"name":"x"}'), context);
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret database detail');
    expect(JSON.parse(res.body ?? '')).toEqual({
      success: false,
      error: { code: 'INTERNAL_ERROR', message: 'Something went wrong on our side. Please try again.' },
    });
    expect(logged).toHaveBeenCalledOnce();
    const line = JSON.parse(String(logged.mock.calls[0]?.[0]));
    expect(line).toMatchObject({
      level: 'error',
      requestId: 'req-1',
      route: `${contract.method} ${contract.path}`,
      error: { message: 'secret database detail' },
    });
  });

  it('answers 504 with the envelope just before the function would be stopped, rather than Lambda’s bare 500', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const handler = defineHandler(contract, () => new Promise<never>(() => {}));
    const res = await handler(event('{"name":"x"}'), { ...context, getRemainingTimeInMillis: () => 30 });
    expect({ status: res.statusCode, body: JSON.parse(res.body ?? '') }).toEqual({
      status: 504,
      body: { success: false, error: { code: 'TIMEOUT', message: 'This took too long and was stopped. Please try again.' } },
    });
  });

  it('maps an AppError to its status and envelope', async () => {
    const handler = defineHandler(contract, async () => {
      throw new AppError(409, 'CONFLICT', 'Already there', { id: 'x' });
    });
    const res = await handler(event('{"name":"x"}'), context);
    expect(res.statusCode).toBe(409);
    expect(JSON.parse(res.body ?? '')).toEqual({
      success: false,
      error: { code: 'CONFLICT', message: 'Already there', details: { id: 'x' } },
    });
  });

  it('answers a 429 with when to come back, in the envelope and as Retry-After', async () => {
    const handler = defineHandler(contract, async () => {
      throw tooManyRequests('Too many calling tokens requested. Try again in 2 minutes.', 99.2);
    });
    const res = await handler(event('{"name":"x"}'), context);
    expect(res.statusCode).toBe(429);
    expect(res.headers?.['retry-after']).toBe('100');
    expect(JSON.parse(res.body ?? '').error.details).toEqual({ retryAfterSeconds: 100 });
  });

  it('decodes base64 bodies and hands the validated body to the domain function', async () => {
    const handler = defineHandler(contract, async ({ body, sourceIp }) => ({ data: { hello: body.name, sourceIp } }));
    const res = await handler(event(Buffer.from('{"name":"Ada"}').toString('base64'), {}, true), context);
    expect(JSON.parse(res.body ?? '')).toEqual({ success: true, data: { hello: 'Ada', sourceIp: '192.0.2.1' } });
  });

  it('answers a path id too long to name anything with 404, before the domain function runs', async () => {
    const fn = vi.fn(async () => ({ data: 'reached' }));
    const handler = defineHandler(contract, fn);
    const res = await handler({ ...event('{"name":"x"}'), pathParameters: { id: '🦄'.repeat(100) } }, context);
    expect(res.statusCode).toBe(404);
    expect(JSON.parse(res.body ?? '')).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'Not found' } });
    expect(fn).not.toHaveBeenCalled();
  });

  it('types params by the path and data by the response (tsc checks each @ts-expect-error is an error)', async () => {
    const parts = httpContract({
      method: 'GET',
      path: '/things/{id}/parts/{partId}',
      auth: 'public',
      response: z.object({ part: z.string(), count: z.number() }),
    });
    const handler = defineHandler(parts, async ({ params }) => {
      // @ts-expect-error the path has no {nope}
      expect(params.nope).toBeUndefined();
      return { data: { part: `${params.id}/${params.partId}`, count: 1 } };
    });
    // @ts-expect-error the response's count is a number
    defineHandler(parts, async () => ({ data: { part: 'x', count: 'one' } }));
    // @ts-expect-error the response's count is missing
    defineHandler(parts, async () => ({ data: { part: 'x' } }));

    const res = await handler({ ...event(), pathParameters: { id: 'a', partId: 'b' } }, context);
    expect(JSON.parse(res.body ?? '')).toEqual({ success: true, data: { part: 'a/b', count: 1 } });
    expect(handler.contract).toBe(parts);
  });

  describe('behind CloudFront', () => {
    const viewer = { 'cloudfront-viewer-address': '203.0.113.9:50123' };
    const handler = defineHandler(contract, async ({ sourceIp }) => ({ data: sourceIp }));
    afterEach(() => vi.unstubAllEnvs());

    it('refuses a request without the origin secret with a 403 envelope (the execute-api endpoint is public)', async () => {
      vi.stubEnv('ORIGIN_SECRET', 'the-origin-secret');
      for (const headers of [viewer, { ...viewer, [ORIGIN_SECRET_HEADER]: 'a-guess' }]) {
        const res = await handler(event('{"name":"x"}', headers), context);
        expect(res.statusCode).toBe(403);
        expect(JSON.parse(res.body ?? '')).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
      }
    });

    it('takes the viewer address CloudFront passes over the edge address, on a request with the secret', async () => {
      vi.stubEnv('ORIGIN_SECRET', 'the-origin-secret');
      const res = await handler(event('{"name":"x"}', { ...viewer, [ORIGIN_SECRET_HEADER]: 'the-origin-secret' }), context);
      expect(JSON.parse(res.body ?? '').data).toBe('203.0.113.9');
    });

    it('accepts the previous secret while CloudFront has not been deployed with a rotated one', async () => {
      vi.stubEnv('ORIGIN_SECRET', 'the-new-secret');
      vi.stubEnv('ORIGIN_SECRET_PREVIOUS', 'the-origin-secret');
      const res = await handler(event('{"name":"x"}', { ...viewer, [ORIGIN_SECRET_HEADER]: 'the-origin-secret' }), context);
      expect(res.statusCode).toBe(200);
    });

    it('never trusts a viewer address the request only claims', async () => {
      const res = await handler(event('{"name":"x"}', viewer), context);
      expect(JSON.parse(res.body ?? '').data).toBe('192.0.2.1');
    });
  });
});

describe('defineHandler of a binary contract', () => {
  const picture = httpContract({ method: 'GET', path: '/picture/{index}', auth: 'public', binary: true });
  const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);

  it('answers the bytes base64-encoded as payload 2.0 carries them, with their type, Cache-Control and Content-Disposition', async () => {
    const handler = defineHandler(picture, async () => ({
      binary: bytes,
      contentType: 'image/png',
      cacheControl: 'private, no-store',
      contentDisposition: 'inline',
    }));
    const res = await handler(event(), context);
    expect(res.statusCode).toBe(200);
    expect(res.isBase64Encoded).toBe(true);
    expect(Buffer.from(res.body ?? '', 'base64')).toEqual(bytes);
    expect(res.headers).toMatchObject({
      'content-type': 'image/png',
      'cache-control': 'private, no-store',
      'content-disposition': 'inline',
      'x-content-type-options': 'nosniff',
    });
  });

  it('keeps no-store when the handler names no Cache-Control', async () => {
    const handler = defineHandler(picture, async () => ({ binary: bytes, contentType: 'audio/wav' }));
    const res = await handler(event(), context);
    expect(res.headers).toMatchObject({ 'content-type': 'audio/wav', 'cache-control': 'no-store' });
  });

  it('answers its failures as the JSON error envelope, not bytes', async () => {
    const handler = defineHandler(picture, async () => {
      throw new AppError(413, 'PAYLOAD_TOO_LARGE', 'This picture is too large to show here.');
    });
    const res = await handler(event(), context);
    expect(res.statusCode).toBe(413);
    expect(res.isBase64Encoded).toBeUndefined();
    expect(res.headers?.['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(res.body ?? '')).toEqual({
      success: false,
      error: { code: 'PAYLOAD_TOO_LARGE', message: 'This picture is too large to show here.' },
    });
  });

  it('is typed: a binary contract’s handler returns bytes, an envelope contract’s handler data', () => {
    // @ts-expect-error a binary contract's handler cannot answer an envelope's data
    defineHandler(picture, async () => ({ data: {} }));
    // @ts-expect-error an envelope contract's handler cannot answer bytes
    defineHandler(contract, async () => ({ binary: bytes, contentType: 'image/png' }));
  });
});
