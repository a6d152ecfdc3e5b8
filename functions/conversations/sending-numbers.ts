import type { SendingNumber } from '../../shared/contract/conversations';
import { seesWholeCompany } from '../../shared/visibility';
import { memberNumbers } from '../settings/member-numbers';
import type { Reader } from './visible-conversation';

/**
 * The numbers a member may start a text from (docs/product.md: New conversation): the active SMS
 * channels routed to the member or to an inbox they are a member of, and for owners and admins those
 * routed to nobody: only they see an unassigned number's conversations (docs/product.md: Who sees
 * what), so an agent who wrote first there could not read the answer. As the caller IDs of calls
 * (voice/caller-ids.ts), plus the unassigned numbers for owners and admins.
 */
export const listSendingNumbers = ({ companyId, userId, role }: Reader): Promise<SendingNumber[]> =>
  memberNumbers(companyId, userId, { capability: 'sms', unassigned: seesWholeCompany(role) });
