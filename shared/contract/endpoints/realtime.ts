// Written by shared/contract/write-endpoints.ts from the contracts: do not edit.
/** The HTTP contracts of realtime.ts without their schemas (route.ts, Endpoint): what the web app calls them by. */
import type * as contracts from '../realtime';
import type { Endpoint } from '../route';

export const realtimeTicket: Endpoint<typeof contracts.realtimeTicket> = {
  method: 'POST',
  path: '/api/v1/realtime/ticket',
  auth: 'user',
};
