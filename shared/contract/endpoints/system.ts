// Written by shared/contract/write-endpoints.ts from the contracts: do not edit.
/** The HTTP contracts of system.ts without their schemas (route.ts, Endpoint): what the web app calls them by. */
import type { Endpoint } from '../route';
import type * as contracts from '../system';

export const health: Endpoint<typeof contracts.health> = {
  method: 'GET',
  path: '/api/v1/health',
  auth: 'public',
};
