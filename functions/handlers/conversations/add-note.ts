import { addNote as addNoteContract } from '@shared/contract/conversations';
import { addNote } from '../../conversations/notes';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(addNoteContract, async ({ principal, params, body }) => ({
  status: 201,
  data: { message: await addNote(principal, params.id, body.body, body.mentionIds) },
}));
