import { describe, expect, it } from 'vitest';
import type { SocketRouteEntry } from '../../functions/routes';
import type { AnsweredSocketContract } from '../../shared/contract/route';
import { answerOf, createSocketRoutes } from './socket-routes';

const entry = (routeKey: string): SocketRouteEntry => ({
  contract: { kind: 'socket', routeKey: routeKey as '$default', auth: 'public' },
  handler: routeKey,
  table: 'none',
  capabilities: [],
});
const ping: AnsweredSocketContract = {
  kind: 'socket-answered',
  routeKey: 'ping',
  answerTemplate:
    '{"at":"$context.requestTime","ms":$context.requestTimeEpoch,"id":"$context.connectionId","x":"$context.nothing"}',
};
const routes = createSocketRoutes([entry('$connect'), entry('$disconnect'), entry('$default'), entry('whoami')], [ping]);
const keyOf = (body: string) => {
  const route = routes.select(body);
  return 'contract' in route ? route.contract.routeKey : `answered ${route.routeKey}`;
};

describe('socket route selection ($request.body.action)', () => {
  it("picks the route named by the body's action: one with a function, or one API Gateway answers", () => {
    expect(keyOf('{"action":"whoami"}')).toBe('whoami');
    expect(keyOf('{"action":"ping","type":"heartbeat"}')).toBe('answered ping');
  });

  it('picks $default for anything else, $connect and $disconnect included', () => {
    for (const body of [
      'not json',
      '{}',
      '{"action":null}',
      '{"action":"nobody"}',
      '{"action":"$connect"}',
      '{"action":"$disconnect"}',
      '"whoami"',
    ])
      expect(keyOf(body)).toBe('$default');
  });

  it('has no routes beyond the table: a missing $default is a bug, not a message to drop', () => {
    expect(() => createSocketRoutes([]).select('{}')).toThrow('No socket route $default');
  });
});

describe("a MOCK route's answer", () => {
  it('fills in the $context variables API Gateway knows, and nothing for the rest', () => {
    const now = new Date(Date.UTC(2026, 10, 25, 10, 59, 0, 123));
    expect(JSON.parse(answerOf(ping, 'conn-1', now) as string)).toEqual({
      at: '25/Nov/2026:10:59:00 +0000',
      ms: now.getTime(),
      id: 'conn-1',
      x: '',
    });
  });

  it('is none for a one-way route', () => {
    expect(answerOf({ kind: 'socket-answered', routeKey: 'hush' }, 'conn-1')).toBeUndefined();
  });
});
