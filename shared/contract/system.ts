import * as z from 'zod/mini';
import { httpContract } from './route';

export const health = httpContract({
  method: 'GET',
  path: '/api/v1/health',
  auth: 'public',
  response: z.object({ status: z.literal('ok') }),
});
