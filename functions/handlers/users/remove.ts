import { removeUser } from '@shared/contract/team';
import { timeLeftMs } from '../../lib/deadline';
import { defineHandler } from '../../lib/define-handler';
import { removeUser as remove } from '../../team/members';

/**
 * A pass moves the member's conversations for at most this long, and stops with time to answer: the
 * Team page sends the next pass, and the scheduled sweep finishes a removal whose page stopped
 * (docs/product.md: Removed members).
 */
const PASS_MS = 4_000;
const ANSWER_MARGIN_MS = 3_000;

/**
 * The pass's length. A test stack may shorten it (MEMBER_REMOVAL_PASS_MS, which AWS never sets; 0: a
 * pass moves nothing), to leave a removal unfinished as a closed tab does; it can only shorten.
 */
function passMs(): number {
  const raw = process.env.MEMBER_REMOVAL_PASS_MS;
  const shortened = raw ? Number(raw) : Number.NaN;
  return shortened >= 0 && shortened < PASS_MS ? shortened : PASS_MS;
}

export const handler = defineHandler(removeUser, async ({ principal, params, body }) => {
  const id = params.id;
  const started = Date.now();
  const pass = passMs();
  const hasTime = () => Date.now() - started < pass && timeLeftMs() > ANSWER_MARGIN_MS;
  const conversations = await remove(principal, id, body.reassignTo, hasTime);
  return { data: { user: { id }, conversations } };
});
