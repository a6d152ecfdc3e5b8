import * as z from 'zod/mini';
import { httpContract } from './route';

/** The platform-admin overview (SPEC §2 Admin overview, §3 Company admin view and Admin overview). */

/** Companies a page of the overview lists, newest first. */
export const ADMIN_COMPANIES_PAGE_SIZE = 50;

export const AdminCompanySchema = z.object({
  id: z.string(),
  name: z.string(),
  owner: z.nullable(z.object({ name: z.string(), email: z.string(), emailVerified: z.boolean() })),
  twilioConfigured: z.boolean(),
  /** Any text sent or received, or any conversation. */
  hasActivity: z.boolean(),
  stats: z.object({ smsSent: z.number(), smsReceived: z.number() }),
  createdAt: z.string(),
});
export type AdminCompany = z.infer<typeof AdminCompanySchema>;

export const AdminOverviewSchema = z.object({
  totalCompanies: z.number(),
  totalUsers: z.number(),
  verifiedUsers: z.number(),
  companies: z.array(AdminCompanySchema),
  /** Pass as `cursor` for the next (older) companies; null on the last page. */
  nextCursor: z.nullable(z.string()),
});
export type AdminOverview = z.infer<typeof AdminOverviewSchema>;

export const adminOverview = httpContract({
  method: 'GET',
  path: '/api/v1/admin/overview',
  auth: 'platformAdmin',
  query: z.object({ cursor: z.optional(z.string().check(z.maxLength(200, 'cursor is invalid'))) }),
  response: AdminOverviewSchema,
});
