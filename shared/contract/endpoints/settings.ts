// Written by shared/contract/write-endpoints.ts from the contracts: do not edit.
/** The HTTP contracts of settings.ts without their schemas (route.ts, Endpoint): what the web app calls them by. */
import type { Endpoint } from '../route';
import type * as contracts from '../settings';

export const addInboxMember: Endpoint<typeof contracts.addInboxMember> = {
  method: 'POST',
  path: '/api/v1/inboxes/{id}/members',
  auth: 'user',
  roles: ['OWNER', 'ADMIN'],
};

export const availableNumbers: Endpoint<typeof contracts.availableNumbers> = {
  method: 'GET',
  path: '/api/v1/providers/{id}/available-numbers',
  auth: 'user',
  roles: ['OWNER', 'ADMIN'],
};

export const connectTwilio: Endpoint<typeof contracts.connectTwilio> = {
  method: 'POST',
  path: '/api/v1/providers/twilio',
  auth: 'user',
  roles: ['OWNER', 'ADMIN'],
};

export const createInbox: Endpoint<typeof contracts.createInbox> = {
  method: 'POST',
  path: '/api/v1/inboxes',
  auth: 'user',
  roles: ['OWNER', 'ADMIN'],
};

export const deleteInbox: Endpoint<typeof contracts.deleteInbox> = {
  method: 'DELETE',
  path: '/api/v1/inboxes/{id}',
  auth: 'user',
  roles: ['OWNER', 'ADMIN'],
};

export const disconnectProvider: Endpoint<typeof contracts.disconnectProvider> = {
  method: 'DELETE',
  path: '/api/v1/providers/{id}',
  auth: 'user',
  roles: ['OWNER', 'ADMIN'],
};

export const getInbox: Endpoint<typeof contracts.getInbox> = {
  method: 'GET',
  path: '/api/v1/inboxes/{id}',
  auth: 'user',
};

export const getInboxRouting: Endpoint<typeof contracts.getInboxRouting> = {
  method: 'GET',
  path: '/api/v1/inboxes/{id}/routing',
  auth: 'user',
};

export const importChannels: Endpoint<typeof contracts.importChannels> = {
  method: 'POST',
  path: '/api/v1/providers/{id}/import-channels',
  auth: 'user',
  roles: ['OWNER', 'ADMIN'],
};

export const listChannels: Endpoint<typeof contracts.listChannels> = {
  method: 'GET',
  path: '/api/v1/channels',
  auth: 'user',
};

export const listInboxes: Endpoint<typeof contracts.listInboxes> = {
  method: 'GET',
  path: '/api/v1/inboxes',
  auth: 'user',
};

export const listProviders: Endpoint<typeof contracts.listProviders> = {
  method: 'GET',
  path: '/api/v1/providers',
  auth: 'user',
};

export const listUsers: Endpoint<typeof contracts.listUsers> = {
  method: 'GET',
  path: '/api/v1/users',
  auth: 'user',
};

export const removeInboxMember: Endpoint<typeof contracts.removeInboxMember> = {
  method: 'DELETE',
  path: '/api/v1/inboxes/{id}/members/{userId}',
  auth: 'user',
  roles: ['OWNER', 'ADMIN'],
};

export const saveInboxRouting: Endpoint<typeof contracts.saveInboxRouting> = {
  method: 'POST',
  path: '/api/v1/inboxes/{id}/routing',
  auth: 'user',
  roles: ['OWNER', 'ADMIN'],
};

export const setInboxRecording: Endpoint<typeof contracts.setInboxRecording> = {
  method: 'PATCH',
  path: '/api/v1/inboxes/{id}/recording',
  auth: 'user',
  roles: ['OWNER', 'ADMIN'],
};

export const updateChannelRouting: Endpoint<typeof contracts.updateChannelRouting> = {
  method: 'PATCH',
  path: '/api/v1/channels/{id}/routing',
  auth: 'user',
  roles: ['OWNER', 'ADMIN'],
};
