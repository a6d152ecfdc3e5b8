import { PICTURE_URL_SECONDS, type PictureType } from '../../shared/constants';
import type { PictureUpload } from '../../shared/contract/conversations';
import { newId } from '../auth/opaque-tokens';
import { pictureUploadUrl, unsentKey } from '../lib/picture-bucket';

/**
 * Where the browser PUTs one picture to attach (docs/product.md: Pictures out): its id, named later in
 * `pictureIds`, and a URL that takes exactly `size` bytes of `contentType` within PICTURE_URL_SECONDS, under the
 * company's own prefix. Nothing is stored until then: an upload never sent is removed by the bucket's
 * lifecycle rule (infra/constructs/picture-bucket.ts).
 */
export async function createPictureUpload(
  companyId: string,
  picture: { contentType: PictureType; size: number },
): Promise<PictureUpload> {
  const id = newId();
  // Reckoned before signing: the URL stays good at least until then.
  const expiresAt = new Date(Date.now() + PICTURE_URL_SECONDS * 1000).toISOString();
  const url = await pictureUploadUrl(unsentKey(companyId, id), picture.contentType, picture.size, PICTURE_URL_SECONDS);
  // Content-Length is signed too, as the announced size; a browser sends it itself (it may not set it).
  return { id, url, headers: { 'Content-Type': picture.contentType }, expiresAt };
}
