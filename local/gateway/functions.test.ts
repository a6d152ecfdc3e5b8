import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, release, startTestGateway, type TestGateway } from './test-gateway';

/** How the gateway runs a route's function; in environments of their own: local/function-environments.test.ts. */
describe('functions behind the gateway', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  it('give each handler only the environment of its declared capabilities', async () => {
    const mail = JSON.parse((await get(`${gw.url}/mail`)).body);
    expect(mail.variables.sort()).toEqual(['MAIL_FROM', 'TABLE_NAME']);
    const nothing = JSON.parse((await get(`${gw.url}/nothing`)).body);
    expect(nothing.variables).toEqual(['TABLE_NAME']);
  });

  it("answers a function's timeout as API Gateway answers a function error", async () => {
    const res = await get(`${gw.url}/slow`);
    expect(res).toEqual({ status: 500, body: JSON.stringify({ message: 'Internal Server Error' }) });
    release();
  });
});
