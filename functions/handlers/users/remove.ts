import { removeUser } from '@shared/contract/team';
import { timeLeftMs } from '../../lib/deadline';
import { defineHandler } from '../../lib/define-handler';
import { removeUser as remove } from '../../team/members';

/**
 * A pass moves the member's conversations for at most this long, and stops with time to answer: the
 * Team page sends the next pass (docs/product.md: Removed members).
 */
const PASS_MS = 4_000;
const ANSWER_MARGIN_MS = 3_000;

export const handler = defineHandler(removeUser, async ({ principal, params, body }) => {
  const id = params.id;
  const started = Date.now();
  const hasTime = () => Date.now() - started < PASS_MS && timeLeftMs() > ANSWER_MARGIN_MS;
  const conversations = await remove(principal, id, body.reassignTo, hasTime);
  return { data: { user: { id }, conversations } };
});
