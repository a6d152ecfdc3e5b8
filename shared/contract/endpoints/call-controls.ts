// Written by shared/contract/write-endpoints.ts from the contracts: do not edit.
/** The HTTP contracts of call-controls.ts without their schemas (route.ts, Endpoint): what the web app calls them by. */
import type * as contracts from '../call-controls';
import type { Endpoint } from '../route';

export const holdCall: Endpoint<typeof contracts.holdCall> = {
  method: 'POST',
  path: '/api/v1/calls/{callId}/hold',
  auth: 'user',
};
