/**
 * The security headers of every answer the functions give (JSON envelopes, the `$default` fallback's,
 * TwiML): the answers are data, never pages, so nothing may render, frame or sniff them, no cache may
 * keep them (they carry tokens and a company's data), and browsers keep to HTTPS. CloudFront adds its
 * own policy to the SPA only; these travel with the API's answers wherever they are served from.
 */
export const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
} as const;
