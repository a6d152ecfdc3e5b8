import type { SendingNumber } from '../../shared/contract/conversations';
import { memberNumbers } from '../settings/member-numbers';

/**
 * The numbers a member may start a text from (docs/product.md: New conversation): the active SMS
 * channels routed to the member, to an inbox they are a member of, or to nobody (an unassigned
 * number's texts reach the whole team, so anyone may write first). As the caller IDs of calls
 * (voice/caller-ids.ts), plus the unassigned numbers.
 */
export const listSendingNumbers = (companyId: string, userId: string): Promise<SendingNumber[]> =>
  memberNumbers(companyId, userId, { capability: 'sms', unassigned: true });
