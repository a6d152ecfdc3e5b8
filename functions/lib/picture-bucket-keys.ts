/**
 * The pictures bucket's key layout (functions/lib/picture-bucket.ts), apart from its client: the CDK
 * stack grants and expires by these prefixes.
 */
export const UNSENT_PREFIX = 'unsent';
export const SENT_PREFIX = 'sent';

export const unsentKey = (companyId: string, uploadId: string) => `${UNSENT_PREFIX}/${companyId}/${uploadId}`;
export const sentKey = (companyId: string, uploadId: string) => `${SENT_PREFIX}/${companyId}/${uploadId}`;
