import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { keepAlive } from './heartbeat';

const INTERVAL_MS = 1_000;

/**
 * The heartbeat on a plain socket, its clock in the test's hands (the sockets themselves are real):
 * the server beats with keepAlive and acknowledges every other frame with `ack {frame}`, so a test
 * sends a frame after a heartbeat and knows that whatever the heartbeat led to arrived before the ack.
 */
describe('signalling heartbeat', () => {
  let server: WebSocketServer;
  let client: WebSocket;
  const frames: string[] = [];
  let arrived: () => void = () => {};

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance', 'Date'] });
    server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    server.on('connection', (socket) => {
      const heartbeat = keepAlive(socket, INTERVAL_MS);
      socket.on('message', (data, isBinary) => {
        if (!heartbeat.heard(data, isBinary)) socket.send(`ack ${String(data)}`);
      });
    });
    await new Promise((resolve) => server.once('listening', resolve));
    client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    client.on('message', (data) => {
      frames.push(String(data));
      arrived();
    });
    await new Promise((resolve) => client.once('open', resolve));
  });
  afterEach(async () => {
    client.close();
    await new Promise((resolve) => server.close(resolve));
    frames.length = 0;
    vi.useRealTimers();
  });

  /** Sends the frames, then a marker, and answers what came back up to the marker's ack. */
  async function exchange(...sent: string[]): Promise<string[]> {
    const from = frames.length;
    const marker = `marker ${from}`;
    const acked = new Promise<void>((resolve) => {
      arrived = () => {
        if (frames.at(-1) === `ack ${marker}`) resolve();
      };
    });
    for (const frame of [...sent, marker]) client.send(frame);
    await acked;
    return frames.slice(from, -1);
  }

  it('beats every interval, and does not answer the SDK’s answer to a beat', async () => {
    expect(await exchange()).toEqual([]);
    vi.advanceTimersByTime(INTERVAL_MS);
    // The beat was sent before the marker's ack; the SDK's answer to it is not answered back.
    expect(await exchange()).toEqual(['\n']);
    expect(await exchange('\n')).toEqual([]);
    vi.advanceTimersByTime(INTERVAL_MS);
    expect(await exchange('\n')).toEqual(['\n']);
  });

  it('answers the client’s own heartbeat: at once, or half an interval after its own beat', async () => {
    expect(await exchange('\n')).toEqual(['\n']);
    vi.advanceTimersByTime(INTERVAL_MS);
    expect(await exchange()).toEqual(['\n']);
    vi.advanceTimersByTime(INTERVAL_MS / 2 - 1);
    expect(await exchange('\n')).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(await exchange('\n')).toEqual(['\n']);
  });

  it('times its beats on the monotonic clock: a host moving Date ahead does not make the SDK’s answer a beat to answer', async () => {
    vi.advanceTimersByTime(INTERVAL_MS);
    expect(await exchange()).toEqual(['\n']);
    vi.setSystemTime(Date.now() + 60 * INTERVAL_MS);
    expect(await exchange('\n')).toEqual([]);
  });

  it('stops beating when the socket closes', async () => {
    expect(vi.getTimerCount()).toBe(1);
    const closed = new Promise((resolve) => server.clients.values().next().value?.once('close', resolve));
    client.close();
    await closed;
    expect(vi.getTimerCount()).toBe(0);
  });
});
