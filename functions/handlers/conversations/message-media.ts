import { messageMedia } from '@shared/contract/conversations';
import { messageMediaContent } from '../../conversations/message-media';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(messageMedia, ({ principal, params }) => messageMediaContent(principal.companyId, params));
