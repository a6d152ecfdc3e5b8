import type { Conversation } from '../../shared/contract/conversations';
import { AppError } from '../lib/app-error';

/**
 * The team inbox's rules (issue 27). Read markers, unread counts and notes live in modules of their
 * own (read-markers.ts, unread.ts, unread-window.ts, notes.ts); assignment is still a placeholder here.
 */
const notYet = () => new AppError(501, 'INTERNAL_ERROR', 'Not built yet');

export async function assign(
  _companyId: string,
  _userId: string,
  _conversationId: string,
  _assigneeId: string | null,
): Promise<Conversation> {
  throw notYet();
}
