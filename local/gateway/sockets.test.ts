import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { createSockets, type OpenSocket, post } from './sockets';

/** A stand-in for a ws socket: what was sent and how it was closed. */
function fakeSocket() {
  const calls: string[] = [];
  const ws = {
    send: (data: string) => calls.push(`send ${data}`),
    close: (code: number) => calls.push(`close ${code}`),
    terminate: () => calls.push('terminate'),
  } as unknown as WebSocket;
  const socket: OpenSocket = {
    ws,
    connectedAt: new Date(0),
    lastActiveAt: new Date(0),
    sourceIp: '127.0.0.1',
    userAgent: 'test',
  };
  return { socket, calls };
}

describe('the connections the gateway holds', () => {
  it('holds a connection whose $connect runs, but not as open: @connections answers it 410', () => {
    const sockets = createSockets();
    sockets.connecting('c-1', new Date(1000));
    expect(sockets.connectedAt('c-1')).toEqual(new Date(1000));
    expect(sockets.open('c-1')).toBeUndefined();
    expect(sockets.close('c-1')).toBe(false);
  });

  it('opens, closes as the server and forgets a connection', () => {
    const sockets = createSockets();
    const { socket, calls } = fakeSocket();
    sockets.opened('c-1', socket);
    expect(sockets.open('c-1')).toBe(socket);
    expect(sockets.close('c-1')).toBe(true);
    expect(calls).toEqual(['close 1000']);
    sockets.forget('c-1');
    expect(sockets.open('c-1')).toBeUndefined();
    expect(sockets.connectedAt('c-1')).toBeUndefined();
  });

  it('counts a post as activity', () => {
    const { socket, calls } = fakeSocket();
    post(socket, 'hi');
    expect(calls).toEqual(['send hi']);
    expect(socket.lastActiveAt.getTime()).toBeGreaterThan(0);
  });

  it('terminates every open connection, not those still connecting', () => {
    const sockets = createSockets();
    const one = fakeSocket();
    const two = fakeSocket();
    sockets.opened('c-1', one.socket);
    sockets.opened('c-2', two.socket);
    sockets.connecting('c-3', new Date());
    sockets.terminateAll();
    expect([...one.calls, ...two.calls]).toEqual(['terminate', 'terminate']);
  });
});
