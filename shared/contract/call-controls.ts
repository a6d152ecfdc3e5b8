import * as z from 'zod/mini';
import { CallSchema } from './calls';
import { httpContract } from './route';

/**
 * What an agent does to a call under way (docs/product.md: Hold). `{callId}` is the Twilio CallSid of
 * the customer's call, the id the widget learns for its call (docs/product.md §3 Inbound call parameters).
 */

export const holdCall = httpContract({
  method: 'POST',
  path: '/api/v1/calls/{callId}/hold',
  auth: 'user',
  body: z.object({ held: z.boolean({ error: 'held must be true or false' }) }),
  response: z.object({ call: CallSchema }),
});
