// Written by shared/contract/write-endpoints.ts from the contracts: do not edit.
/** The HTTP contracts of company.ts without their schemas (route.ts, Endpoint): what the web app calls them by. */
import type * as contracts from '../company';
import type { Endpoint } from '../route';

export const adminDeleteCompany: Endpoint<typeof contracts.adminDeleteCompany> = {
  method: 'DELETE',
  path: '/api/v1/admin/companies/{id}',
  auth: 'platformAdmin',
};

export const deleteCompany: Endpoint<typeof contracts.deleteCompany> = {
  method: 'DELETE',
  path: '/api/v1/company',
  auth: 'user',
  roles: ['OWNER'],
};

export const getRetention: Endpoint<typeof contracts.getRetention> = {
  method: 'GET',
  path: '/api/v1/company/retention',
  auth: 'user',
};

export const updateRetention: Endpoint<typeof contracts.updateRetention> = {
  method: 'PUT',
  path: '/api/v1/company/retention',
  auth: 'user',
  roles: ['OWNER', 'ADMIN'],
};
