import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { addInboxMember } from '../../shared/contract/endpoints/settings';
import { fillPath } from '../../shared/contract/route';
import {
  connectAuthorizerEvent,
  httpAuthorizerEvent,
  httpEvent,
  isTextual,
  queryParameters,
  requestTime,
  socketEvent,
  sqsEvent,
} from './events';

/** A request as node:http hands it over, with only what the events read. */
const request = (method: string, headers: Record<string, string>) =>
  ({
    method,
    headers,
    httpVersion: '1.1',
    socket: { remoteAddress: '::ffff:10.0.0.7', remotePort: 4321 },
  }) as unknown as IncomingMessage;

describe('HTTP API payload 2.0 events', () => {
  const route = addInboxMember;
  const rawPath = fillPath(route.path, { id: 'in one' });
  const url = new URL(`http://localhost${rawPath}?b=1&b=2`);

  it('name the route, the raw and the decoded path, the parameters, cookies and the caller', () => {
    const event = httpEvent(request('post', { cookie: 'a=1; b=2', 'user-agent': 'ua' }), url, Buffer.alloc(0), route, undefined);
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: `${route.method} ${route.path}`,
      rawPath,
      rawQueryString: 'b=1&b=2',
      cookies: ['a=1', 'b=2'],
      queryStringParameters: { b: '1,2' },
      pathParameters: { id: 'in one' },
      isBase64Encoded: false,
      requestContext: {
        http: {
          method: route.method,
          path: route.path.replace('{id}', 'in one'),
          sourceIp: '10.0.0.7',
          userAgent: 'ua',
          protocol: 'HTTP/1.1',
        },
        stage: '$default',
      },
    });
    expect(event.body).toBeUndefined();
  });

  it('are `$default` with no path parameters when no route matches, and carry what CloudFront adds', () => {
    const event = httpEvent(request('GET', { 'x-switchboard-origin': 'guessed' }), url, Buffer.alloc(0), undefined, 'secret');
    expect(event.routeKey).toBe('$default');
    expect(event.pathParameters).toBeUndefined();
    expect(event.headers).toMatchObject({ 'x-switchboard-origin': 'secret', 'cloudfront-viewer-address': '10.0.0.7:4321' });
  });

  it('take text as text and anything else base64-encoded', () => {
    expect(['text/csv', 'application/json; charset=utf-8', 'APPLICATION/XML', 'application/javascript'].every(isTextual)).toBe(
      true,
    );
    expect([undefined, '', 'application/x-www-form-urlencoded', 'application/octet-stream', 'image/png'].some(isTextual)).toBe(
      false,
    );
    const form = httpEvent(
      request('POST', { 'content-type': 'application/x-www-form-urlencoded' }),
      url,
      Buffer.from('a=1'),
      route,
      undefined,
    );
    expect(form).toMatchObject({ body: Buffer.from('a=1').toString('base64'), isBase64Encoded: true });
  });

  it('comma-join repeated query parameters, and have none for an empty query', () => {
    expect(queryParameters(new URLSearchParams('tag=a&tag=b%2Cc&page=2'))).toEqual({ tag: 'a,b,c', page: '2' });
    expect(queryParameters(new URLSearchParams(''))).toBeUndefined();
  });
});

describe('WebSocket API events', () => {
  it('carry the connection, its time of connecting, and a message id for messages only', () => {
    const connectedAt = new Date(Date.UTC(2026, 0, 2));
    const message = socketEvent('whoami', 'MESSAGE', 'c-1', connectedAt, { body: '{}' });
    expect(message).toMatchObject({
      body: '{}',
      isBase64Encoded: false,
      requestContext: {
        routeKey: 'whoami',
        eventType: 'MESSAGE',
        connectionId: 'c-1',
        connectedAt: connectedAt.getTime(),
        stage: 'ws',
      },
    });
    expect(message.requestContext.messageId).toEqual(expect.any(String));
    expect(socketEvent('$connect', 'CONNECT', 'c-1', connectedAt, {}).requestContext.messageId).toBeUndefined();
  });

  it("write `$context.requestTime` in API Gateway's Common Log Format", () => {
    expect(requestTime(new Date(Date.UTC(2026, 10, 5, 9, 8, 7)))).toBe('05/Nov/2026:09:08:07 +0000');
  });
});

describe('authorizer events', () => {
  it("give an HTTP API's authorizer the request without its body, and its identity", () => {
    const url = new URL('http://localhost/first?x=1');
    const event = httpEvent(
      request('POST', { 'content-type': 'text/plain' }),
      url,
      Buffer.from('secret body'),
      undefined,
      'origin',
    );
    const authorizer = httpAuthorizerEvent(event, 'origin');
    expect(authorizer).toMatchObject({
      type: 'REQUEST',
      routeArn: 'arn:aws:execute-api:local:000000000000:local/$default/POST/first',
      identitySource: ['origin'],
      cookies: [],
    });
    expect('body' in authorizer).toBe(false);
    expect('isBase64Encoded' in authorizer).toBe(false);
  });

  it("give a WebSocket API's authorizer the REST-style maps and the caller", () => {
    const connect = socketEvent('$connect', 'CONNECT', 'c-1', new Date(), {
      headers: { 'User-Agent': 'ua', Host: 'h' },
      queryStringParameters: { ticket: 't' },
    });
    expect(connectAuthorizerEvent(connect, '10.0.0.7')).toMatchObject({
      type: 'REQUEST',
      methodArn: 'arn:aws:execute-api:local:000000000000:local/ws/$connect',
      multiValueHeaders: { 'User-Agent': ['ua'], Host: ['h'] },
      queryStringParameters: { ticket: 't' },
      multiValueQueryStringParameters: { ticket: ['t'] },
      stageVariables: null,
      requestContext: { identity: { sourceIp: '10.0.0.7', userAgent: 'ua' } },
    });
    const bare = connectAuthorizerEvent(socketEvent('$connect', 'CONNECT', 'c-2', new Date(), {}), '10.0.0.7');
    expect(bare).toMatchObject({ queryStringParameters: null, multiValueQueryStringParameters: null, headers: {} });
  });
});

describe('SQS events', () => {
  it("name the queue and the message's receive count", () => {
    const event = sqsEvent('companyDeletion', 'm-1', 'body', 'md5', 2);
    expect(event.Records).toEqual([
      expect.objectContaining({
        messageId: 'm-1',
        body: 'body',
        md5OfBody: 'md5',
        eventSourceARN: 'arn:aws:sqs:local:000000000000:companyDeletion',
        attributes: expect.objectContaining({ ApproximateReceiveCount: '2' }),
      }),
    ]);
  });
});
