import { SOCKET_RECONNECT } from '@shared/constants';

export interface Backoff {
  initialMs: number;
  factor: number;
  maxMs: number;
}

/**
 * Delay before reconnect attempt `attempt` (0 first): the step doubles from 1 s up to 30 s, and the
 * delay is drawn between half the step and the step ("equal jitter"), so tabs that lost the server at
 * the same moment do not all come back at the same moment.
 */
export function reconnectDelay(attempt: number, random = Math.random, backoff: Backoff = SOCKET_RECONNECT): number {
  const step = Math.min(backoff.maxMs, backoff.initialMs * backoff.factor ** attempt);
  return step / 2 + random() * (step / 2);
}
