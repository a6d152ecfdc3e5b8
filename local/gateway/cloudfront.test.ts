import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketPath } from '../../shared/contract/realtime-events';
import { companyFromPath } from './cloudfront';
import {
  type ConnectEvent,
  connecting,
  get,
  ORIGIN_SECRET,
  openSocket,
  startTestGateway,
  type TestGateway,
} from './test-gateway';

describe('the gateway as CloudFront in front of the API', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  it('records the address a request came from and adds the origin secret, whatever the client sent', async () => {
    const res = await get(
      `${gw.url}/nothing`,
      { 'cloudfront-viewer-address': '203.0.113.9:443', 'x-switchboard-origin': 'guessed' },
      '127.9.8.7',
    );
    const { headers } = JSON.parse(res.body);
    expect(headers['cloudfront-viewer-address']).toMatch(/^127\.9\.8\.7:\d+$/);
    expect(headers['x-switchboard-origin']).toBe(ORIGIN_SECRET);
  });

  it("gives $connect the headers' names as the client sent them, in headers and multiValueHeaders", async () => {
    const { ws } = await openSocket(gw.ws, [], {
      'X-Client-Thing': 'one',
      'X-Switchboard-Origin': 'guessed',
      'CloudFront-Viewer-Address': '203.0.113.9:443',
    });
    ws.close();
    const { headers, multiValueHeaders } = connecting.events.at(-1) as ConnectEvent;
    expect(headers).toMatchObject({ Host: expect.any(String), 'Sec-WebSocket-Version': '13', 'X-Client-Thing': 'one' });
    expect(headers['sec-websocket-version']).toBeUndefined();
    expect(multiValueHeaders).toMatchObject({ 'Sec-WebSocket-Version': ['13'], 'X-Client-Thing': ['one'] });
    // CloudFront's own: the secret under the name it is configured with, the address as CloudFront names it.
    expect(headers['x-switchboard-origin']).toBe(ORIGIN_SECRET);
    expect(headers['X-Switchboard-Origin']).toBeUndefined();
    expect(headers['CloudFront-Viewer-Address']).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(multiValueHeaders['CloudFront-Viewer-Address']).toEqual([headers['CloudFront-Viewer-Address']]);
  });

  it("hands a socket's company path to $connect as the companyId query parameter", async () => {
    const { ws } = await openSocket(new URL(`${socketPath('c 1')}?ticket=t`, gw.ws).href);
    ws.close();
    expect((connecting.events.at(-1) as ConnectEvent).queryStringParameters).toEqual({ ticket: 't', companyId: 'c 1' });
  });
});

describe('companyFromPath, as the viewer-request function rewrites the socket path', () => {
  const query = (url: string) => Object.fromEntries(companyFromPath(new URL(url, 'http://localhost')));

  it('takes the company from /ws/company/{id}, over a companyId the client sent', () => {
    expect(query(`${socketPath('c-1')}/?ticket=t&companyId=other`)).toEqual({ ticket: 't', companyId: 'c-1' });
  });

  // Written out: neither is a company's socket path.
  it('leaves plain /ws and deeper paths as they are', () => {
    expect(query('/ws?companyId=c-2')).toEqual({ companyId: 'c-2' });
    expect(query('/ws/company/a/b')).toEqual({});
  });
});
