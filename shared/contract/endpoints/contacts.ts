// Written by shared/contract/write-endpoints.ts from the contracts: do not edit.
/** The HTTP contracts of contacts.ts without their schemas (route.ts, Endpoint): what the web app calls them by. */
import type * as contracts from '../contacts';
import type { Endpoint } from '../route';

export const createContact: Endpoint<typeof contracts.createContact> = {
  method: 'POST',
  path: '/api/v1/contacts',
  auth: 'user',
};

export const deleteContact: Endpoint<typeof contracts.deleteContact> = {
  method: 'DELETE',
  path: '/api/v1/contacts/{id}',
  auth: 'user',
};

export const listContacts: Endpoint<typeof contracts.listContacts> = {
  method: 'GET',
  path: '/api/v1/contacts',
  auth: 'user',
};

export const updateContact: Endpoint<typeof contracts.updateContact> = {
  method: 'PUT',
  path: '/api/v1/contacts/{id}',
  auth: 'user',
};
