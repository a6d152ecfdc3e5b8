import type { SocketRouteEntry } from '../../functions/routes';
import { REALTIME_ROUTE_SELECTION } from '../../shared/contract/realtime';
import type { AnsweredSocketContract } from '../../shared/contract/route';
import { requestTime } from './events';

/**
 * The message field the WebSocket API routes on: its route selection expression,
 * `$request.body.<path>`, as a path into the JSON body.
 */
const ROUTE_SELECTION_PATH = REALTIME_ROUTE_SELECTION.replace(/^\$request\.body\./, '').split('.');

/** A WebSocket API's routes: those with a function, and those API Gateway answers itself (MOCK). */
export function createSocketRoutes(socket: readonly SocketRouteEntry[], answered: readonly AnsweredSocketContract[] = []) {
  const route = (routeKey: string): SocketRouteEntry => {
    const entry = socket.find((r) => r.contract.routeKey === routeKey);
    if (!entry) throw new Error(`No socket route ${routeKey}`);
    return entry;
  };

  return {
    /** `$connect`, `$disconnect` or `$default`: the route table has each. */
    route,
    /**
     * A message's route as the WebSocket API's route selection expression picks it
     * (REALTIME_ROUTE_SELECTION, `$request.body.action`, as infra/constructs/realtime-api.ts deploys it):
     * the route whose key is the JSON body's `action`, else `$default` — for a body that is not JSON,
     * has no such field or names no route (https://docs.aws.amazon.com/apigateway/latest/developerguide/websocket-api-develop-routes.html).
     * `$connect` and `$disconnect` are never a message's route.
     */
    select: (body: string): SocketRouteEntry | AnsweredSocketContract => {
      let selected: unknown;
      try {
        selected = ROUTE_SELECTION_PATH.reduce<unknown>(
          (value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined),
          JSON.parse(body),
        );
      } catch {
        selected = undefined;
      }
      const key = selected === undefined || selected === null ? undefined : String(selected);
      if (!key || key === '$connect' || key === '$disconnect') return route('$default');
      return (
        answered.find((r) => r.routeKey === key) ??
        socket.find((r) => (r.contract.routeKey as string) === key) ??
        route('$default')
      );
    },
  };
}

/** A MOCK route's answer: its template with the `$context` variables API Gateway fills in. */
export type SocketRoutes = ReturnType<typeof createSocketRoutes>;

export function answerOf(route: AnsweredSocketContract, connectionId: string, now = new Date()): string | undefined {
  if (route.answerTemplate === undefined) return undefined;
  const context: Record<string, string> = {
    requestTime: requestTime(now),
    requestTimeEpoch: String(now.getTime()),
    connectionId,
    routeKey: route.routeKey,
    eventType: 'MESSAGE',
  };
  return route.answerTemplate.replace(/\$context\.(\w+)/g, (_, name: string) => context[name] ?? '');
}
