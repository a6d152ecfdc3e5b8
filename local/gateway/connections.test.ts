import { once } from 'node:events';
import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  GetConnectionCommand,
  GoneException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { closeOf, connecting, openSocket, startTestGateway, type TestGateway } from './test-gateway';

describe('@connections, the management API the functions push with', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  const management = () =>
    new ApiGatewayManagementApiClient({
      endpoint: gw.url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
    });

  it('answers as the SDK expects: fields, 410 GoneException, 413 over 128 KB', async () => {
    const { ws, connectionId } = await openSocket(gw.ws);
    const client = management();
    const info = await client.send(new GetConnectionCommand({ ConnectionId: connectionId }));
    expect(info.ConnectedAt).toBeInstanceOf(Date);
    expect(info.LastActiveAt).toBeInstanceOf(Date);
    expect(info.Identity).toEqual({ SourceIp: '127.0.0.1', UserAgent: expect.any(String) });

    const tooLarge = await client
      .send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: new Uint8Array(128 * 1024 + 1) }))
      .catch((error) => error);
    expect(tooLarge.$metadata.httpStatusCode).toBe(413);

    const received = once(ws, 'message');
    await client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: new TextEncoder().encode('hi') }));
    expect(String((await received)[0])).toBe('hi');

    ws.close();
    await once(ws, 'close');
    const gone = await client
      .send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: new Uint8Array(1) }))
      .catch((error) => error);
    expect(gone).toBeInstanceOf(GoneException);
  });

  it('closes a socket on DELETE, as the server (1000)', async () => {
    const { ws, connectionId } = await openSocket(gw.ws);
    const closed = closeOf(ws);
    await management().send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
    expect(await closed).toBe(1000);
  });

  it('answers 410 while $connect still runs', async () => {
    let release: () => void = () => {};
    connecting.hold = new Promise((resolve) => {
      release = resolve;
    });
    const connected = new Promise<string>((resolve) => {
      connecting.onConnect = resolve;
    });
    const ws = new WebSocket(gw.ws);
    const connectionId = await connected;
    const during = await management()
      .send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: new Uint8Array(1) }))
      .catch((error) => error);
    expect(during).toBeInstanceOf(GoneException);
    connecting.hold = undefined;
    release();
    await once(ws, 'open');
    ws.close();
  });
});
