// Written by shared/contract/write-endpoints.ts from the contracts: do not edit.
/** The HTTP contracts of timeline.ts without their schemas (route.ts, Endpoint): what the web app calls them by. */
import type { Endpoint } from '../route';
import type * as contracts from '../timeline';

export const contactTimeline: Endpoint<typeof contracts.contactTimeline> = {
  method: 'GET',
  path: '/api/v1/contacts/{id}/timeline',
  auth: 'user',
};
