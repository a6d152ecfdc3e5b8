import { messageMedia } from '@shared/contract/conversations';
import { messageMediaContent } from '../../conversations/message-media';
import { defineHandler } from '../../lib/define-handler';
import { countFetch, mediaFetchLimit } from '../../lib/member-limits';

export const handler = defineHandler(messageMedia, async ({ principal, params }) => {
  await countFetch(mediaFetchLimit, principal);
  return messageMediaContent(principal, params);
});
