import { createPictureUpload } from '@shared/contract/conversations';
import { createPictureUpload as newUpload } from '../../conversations/picture-uploads';
import { defineHandler } from '../../lib/define-handler';

export const handler = defineHandler(createPictureUpload, async ({ principal, body }) => ({
  status: 201,
  data: { upload: await newUpload(principal.companyId, body) },
}));
