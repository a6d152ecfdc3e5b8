import * as z from 'zod/mini';
import { httpContract } from './route';

/** Company settings and calling (SPEC §3 Company settings, Caller ID, Voice token; §7 "Company, calling"). */

export const CompanySettingsSchema = z.object({
  /** The country the dialer starts with: that of the company's first imported number, else US. */
  default_country_code: z.object({ code: z.string() }),
});
export type CompanySettings = z.infer<typeof CompanySettingsSchema>;

export const companySettings = httpContract({
  method: 'GET',
  path: '/api/v1/company/settings',
  auth: 'user',
  response: z.object({ settings: CompanySettingsSchema }),
});

export const CallerIdSchema = z.object({
  phoneNumber: z.string(),
  /** null for a number routed to the user directly. */
  inboxName: z.nullable(z.string()),
  channelId: z.string(),
});
export type CallerId = z.infer<typeof CallerIdSchema>;

export const listCallerIds = httpContract({
  method: 'GET',
  path: '/api/v1/voice/caller-ids',
  auth: 'user',
  response: z.object({ callerIds: z.array(CallerIdSchema) }),
});

export const voiceToken = httpContract({
  method: 'POST',
  path: '/api/v1/voice/token',
  auth: 'user',
  response: z.object({ token: z.string() }),
});
