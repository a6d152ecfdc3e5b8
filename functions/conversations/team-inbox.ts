import type { Conversation, Message } from '../../shared/contract/conversations';
import { AppError } from '../lib/app-error';

/**
 * The team inbox's rules (issue 27): read markers and notes (assignment: assignment.ts). Placeholders
 * of the contract branch: the API engineers replace them (and may split this module).
 */
const notYet = () => new AppError(501, 'INTERNAL_ERROR', 'Not built yet');

export async function markRead(_companyId: string, _userId: string, _conversationId: string): Promise<Conversation> {
  throw notYet();
}
export async function addNote(_companyId: string, _userId: string, _conversationId: string, _body: string): Promise<Message> {
  throw notYet();
}
export async function countUnread(_companyId: string, _userId: string): Promise<{ count: number; complete: boolean }> {
  throw notYet();
}
