import { isWellEncodedPath, matchPath } from '@shared/contract/route';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { AppError } from '../../lib/app-error';
import { errorResponse } from '../../lib/define-handler';
import { httpRoutes } from '../../routes';

/**
 * API Gateway's `$default` route: an envelope for every path or method the route table lacks. It
 * matches the raw (still encoded) path: `http.path` is already decoded, and decoding it again would
 * misread `%25` and throw on a lone `%`.
 */
export const handler = async (event: APIGatewayProxyEventV2) => {
  const method = event.requestContext.http.method.toUpperCase();
  const path = event.rawPath;
  if (!isWellEncodedPath(path)) {
    return errorResponse(new AppError(400, 'BAD_REQUEST', 'The path is not valid URL encoding'));
  }
  const allowed = httpRoutes.filter((r) => matchPath(r.contract.path, path)).map((r) => r.contract.method);
  if (allowed.length === 0) return errorResponse(new AppError(404, 'NOT_FOUND', `No route for ${method} ${path}`));
  const response = errorResponse(
    new AppError(405, 'METHOD_NOT_ALLOWED', `Method ${method} is not allowed for ${path}; use ${allowed.join(', ')}`),
  );
  return { ...response, headers: { ...response.headers, allow: allowed.join(', ') } };
};
