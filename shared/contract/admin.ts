import * as z from 'zod/mini';
import { httpContract } from './route';

/** The platform-admin overview (docs/product.md §2 Admin overview, §3 Company admin view and Admin overview). */

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

/**
 * Where Twilio reaches the platform (docs/deploy.md: Re-pointing the
 * numbers): the current webhook base, and how many connected companies and imported numbers still
 * point at another one (an earlier domain), so a platform admin sees whether re-pointing is needed.
 */
export const WebhookAddressSchema = z.object({
  webhookBase: z.string(),
  pointingElsewhere: z.object({ companies: z.number(), numbers: z.number() }),
});
export type WebhookAddress = z.infer<typeof WebhookAddressSchema>;

export const webhookAddress = httpContract({
  method: 'GET',
  path: '/api/v1/admin/webhooks',
  auth: 'platformAdmin',
  response: z.object({ webhookAddress: WebhookAddressSchema }),
});

/** What could not be re-pointed, and why; `phoneNumber` null for the company's outbound-call application. */
export const RepointFailureSchema = z.object({
  companyId: z.string(),
  companyName: z.string(),
  phoneNumber: z.nullable(z.string()),
  reason: z.string(),
});
export type RepointFailure = z.infer<typeof RepointFailureSchema>;

/**
 * One pass of a re-point: as many companies as fit in one request, oldest first. `nextCursor` is where
 * the next pass starts (send it back as `cursor`); null once every company was visited.
 */
export const RepointResultSchema = z.object({
  webhookBase: z.string(),
  repointed: z.object({ companies: z.number(), numbers: z.number() }),
  failures: z.array(RepointFailureSchema),
  nextCursor: z.nullable(z.string()),
});
export type RepointResult = z.infer<typeof RepointResultSchema>;

export const repointWebhooks = httpContract({
  method: 'POST',
  path: '/api/v1/admin/webhooks/repoint',
  auth: 'platformAdmin',
  body: z.object({ cursor: z.optional(z.string().check(z.maxLength(400, 'cursor is invalid'))) }),
  response: z.object({ repoint: RepointResultSchema }),
});
