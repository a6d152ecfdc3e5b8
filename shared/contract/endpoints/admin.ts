// Written by shared/contract/write-endpoints.ts from the contracts: do not edit.
/** The HTTP contracts of admin.ts without their schemas (route.ts, Endpoint): what the web app calls them by. */
import type * as contracts from '../admin';
import type { Endpoint } from '../route';

export const adminOverview: Endpoint<typeof contracts.adminOverview> = {
  method: 'GET',
  path: '/api/v1/admin/overview',
  auth: 'platformAdmin',
};

export const repointWebhooks: Endpoint<typeof contracts.repointWebhooks> = {
  method: 'POST',
  path: '/api/v1/admin/webhooks/repoint',
  auth: 'platformAdmin',
};

export const webhookAddress: Endpoint<typeof contracts.webhookAddress> = {
  method: 'GET',
  path: '/api/v1/admin/webhooks',
  auth: 'platformAdmin',
};
