// One error handler: client errors say what is wrong in GitLab's shapes; server errors say only
// "500 Internal Server Error" and log the detail with the request id.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './api-error.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, ParamError, RecordNotFoundError, StatusError, ValidationError } from '../errors.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';

/** The database went away (restart, failover, terminated connection): try again shortly (db/unavailable.ts). */
export function unavailable(): ApiError {
  return new ApiError(503, { message: '503 Service Unavailable' }, { 'retry-after': '1' });
}

export function toApiError(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error instanceof NotFoundError) return new ApiError(404, { message: error.resource ? `404 ${error.resource} Not Found` : '404 Not Found' });
  if (error instanceof RecordNotFoundError) return new ApiError(404, { message: '404 Not found' });
  if (error instanceof ForbiddenError) return new ApiError(403, { message: error.reason ? `403 Forbidden - ${error.reason}` : '403 Forbidden' });
  if (error instanceof ValidationError) return new ApiError(400, { message: error.fields });
  if (error instanceof BadRequestError) return new ApiError(400, { message: error.reason ? `400 Bad request - ${error.reason}` : '400 Bad request' });
  if (error instanceof ParamError) return new ApiError(400, { error: error.message });
  if (error instanceof ConflictError) return new ApiError(409, { message: error.detail ?? '409 Conflict' });
  if (error instanceof StatusError) return new ApiError(error.status, { message: error.body });
  if (isDatabaseUnavailable(error)) return unavailable();
  const fastifyError = error as FastifyError;
  if (fastifyError?.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ApiError(413, { message: '413 Request Entity Too Large' });
    if (fastifyError.statusCode === 415) return new ApiError(415, { message: '415 Unsupported Media Type' });
    return new ApiError(fastifyError.statusCode, { message: `${fastifyError.statusCode} ${fastifyError.message}` });
  }
  return null;
}

const UNAVAILABLE_PAGE = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>503 Service Unavailable</title></head><body><h1>503 Service Unavailable</h1><p>Kiln cannot reach its database right now. Try again in a moment.</p></body></html>';

export function apiErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const apiError = toApiError(error);
  if (apiError?.status === 503) {
    request.log.warn({ err: error }, 'database unavailable');
    // A browser gets a page (GitLab serves public/503.html); clients get GitLab's JSON.
    if (!request.url.startsWith('/api/') && String(request.headers.accept ?? '').includes('text/html')) {
      reply.code(503).headers(apiError.headers).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(UNAVAILABLE_PAGE);
      return;
    }
  }
  if (apiError) {
    reply.code(apiError.status).headers(apiError.headers).send(apiError.body);
    return;
  }
  request.log.error({ err: error }, 'unhandled error');
  reply.code(500).send({ message: '500 Internal Server Error' });
}
