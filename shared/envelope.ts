/** The one response envelope of every HTTP route (docs/product.md §7). */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'VALIDATION_FAILED'
  | 'INVALID_JSON'
  | 'UNAUTHORIZED'
  | 'TOKEN_EXPIRED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'TOO_MANY_REQUESTS'
  /** The user already has the most realtime sockets open (MAX_SOCKETS_PER_USER). */
  | 'TOO_MANY_CONNECTIONS'
  | 'EMAIL_NOT_VERIFIED'
  | 'EMAIL_TAKEN'
  | 'INVALID_CREDENTIALS'
  | 'INVALID_TOKEN'
  | 'REFRESH_TOKEN_REUSED'
  | 'SESSION_ENDED'
  | 'ACCESS_REMOVED'
  | 'PROVIDER_NOT_FOUND'
  | 'PROVIDER_AUTH_FAILED'
  | 'PROVIDER_UNAVAILABLE'
  | 'PROVIDER_TIMEOUT'
  | 'SERVICE_UNAVAILABLE'
  | 'TIMEOUT'
  | 'NUMBER_IN_USE'
  | 'CHANNEL_INACTIVE'
  | 'OPTED_OUT'
  | 'INTERNAL_ERROR';

export interface ErrorBody {
  message: string;
  code: ErrorCode;
  details?: Record<string, unknown>;
}

export interface SuccessEnvelope<T> {
  success: true;
  data: T;
  message?: string;
}

export interface ErrorEnvelope {
  success: false;
  error: ErrorBody;
}

export type Envelope<T> = SuccessEnvelope<T> | ErrorEnvelope;
