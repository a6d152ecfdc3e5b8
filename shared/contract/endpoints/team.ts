// Written by shared/contract/write-endpoints.ts from the contracts: do not edit.
/** The HTTP contracts of team.ts without their schemas (route.ts, Endpoint): what the web app calls them by. */
import type { Endpoint } from '../route';
import type * as contracts from '../team';

export const acceptInvitation: Endpoint<typeof contracts.acceptInvitation> = {
  method: 'POST',
  path: '/api/v1/invitations/accept',
  auth: 'public',
};

export const createInvitation: Endpoint<typeof contracts.createInvitation> = {
  method: 'POST',
  path: '/api/v1/invitations',
  auth: 'user',
  roles: ['OWNER', 'ADMIN'],
};

export const listInvitations: Endpoint<typeof contracts.listInvitations> = {
  method: 'GET',
  path: '/api/v1/invitations',
  auth: 'user',
};

export const previewInvitation: Endpoint<typeof contracts.previewInvitation> = {
  method: 'POST',
  path: '/api/v1/invitations/preview',
  auth: 'public',
};

export const removeUser: Endpoint<typeof contracts.removeUser> = {
  method: 'DELETE',
  path: '/api/v1/users/{id}',
  auth: 'user',
  roles: ['OWNER', 'ADMIN'],
};

export const resendInvitation: Endpoint<typeof contracts.resendInvitation> = {
  method: 'POST',
  path: '/api/v1/invitations/{id}/resend',
  auth: 'user',
  roles: ['OWNER', 'ADMIN'],
};

export const revokeInvitation: Endpoint<typeof contracts.revokeInvitation> = {
  method: 'DELETE',
  path: '/api/v1/invitations/{id}',
  auth: 'user',
  roles: ['OWNER', 'ADMIN'],
};

export const updateUserRole: Endpoint<typeof contracts.updateUserRole> = {
  method: 'PATCH',
  path: '/api/v1/users/{id}',
  auth: 'user',
  roles: ['OWNER'],
};
