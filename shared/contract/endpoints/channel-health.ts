// Written by shared/contract/write-endpoints.ts from the contracts: do not edit.
/** The HTTP contracts of channel-health.ts without their schemas (route.ts, Endpoint): what the web app calls them by. */
import type * as contracts from '../channel-health';
import type { Endpoint } from '../route';

export const getChannelHealth: Endpoint<typeof contracts.getChannelHealth> = {
  method: 'GET',
  path: '/api/v1/channels/{id}/health',
  auth: 'user',
};

export const repairChannel: Endpoint<typeof contracts.repairChannel> = {
  method: 'POST',
  path: '/api/v1/channels/{id}/repair',
  auth: 'user',
  roles: ['OWNER', 'ADMIN'],
};
