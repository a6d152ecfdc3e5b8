import { realtimeTicket } from '@shared/contract/realtime';
import { defineHandler } from '../../lib/define-handler';
import { issueTicket } from '../../realtime/tickets';

export const handler = defineHandler(realtimeTicket, async ({ principal }) => ({
  data: await issueTicket(principal),
  status: 201,
}));
