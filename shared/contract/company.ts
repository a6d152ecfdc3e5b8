import * as z from 'zod/mini';
import { httpContract, MANAGERS } from './route';

/**
 * The company's own lifecycle: deleting it with all its data, and how long
 * its messages and calls are kept.
 */

/** Typing the company's name confirms a deletion, as the Settings and Admin dialogs ask for it. */
export const DeleteCompanySchema = z.object({
  confirm: z.string('Type the company’s name to confirm').check(z.maxLength(200, 'Type the company’s name to confirm')),
});
export type DeleteCompanyInput = z.infer<typeof DeleteCompanySchema>;

/** A deletion goes on in the background once accepted: `DELETING` until nothing of the company is left. */
export const CompanyDeletionSchema = z.object({ companyId: z.string(), status: z.literal('DELETING') });
export type CompanyDeletion = z.infer<typeof CompanyDeletionSchema>;

/** The name typed matches the company's: exactly, apart from spaces around it. */
export const confirmsCompanyName = (typed: string, name: string) => typed.trim() === name.trim();

export const deleteCompany = httpContract({
  method: 'DELETE',
  path: '/api/v1/company',
  auth: 'user',
  roles: ['OWNER'],
  body: DeleteCompanySchema,
  response: z.object({ deletion: CompanyDeletionSchema }),
});

export const adminDeleteCompany = httpContract({
  method: 'DELETE',
  path: '/api/v1/admin/companies/{id}',
  auth: 'platformAdmin',
  body: DeleteCompanySchema,
  response: z.object({ deletion: CompanyDeletionSchema }),
});

/** Days a message or call is kept after it is written; null keeps them (the default). */
export const RETENTION_DAYS = [30, 90, 365] as const;

export const RetentionSchema = z.object({
  messageRetentionDays: z.nullable(
    z.union(
      RETENTION_DAYS.map((d) => z.literal(d)),
      { error: `Keep messages forever (null) or for ${RETENTION_DAYS.join(', ')} days` },
    ),
  ),
});
export type Retention = z.infer<typeof RetentionSchema>;

export const getRetention = httpContract({
  method: 'GET',
  path: '/api/v1/company/retention',
  auth: 'user',
  response: z.object({ retention: RetentionSchema }),
});

export const updateRetention = httpContract({
  method: 'PUT',
  path: '/api/v1/company/retention',
  auth: 'user',
  roles: MANAGERS,
  body: RetentionSchema,
  response: z.object({ retention: RetentionSchema }),
});
