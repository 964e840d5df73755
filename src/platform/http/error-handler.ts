// One error handler: client errors say what is wrong in GitLab's shapes; server errors say only
// "500 Internal Server Error" and log the detail with the request id.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './api-error.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, ParamError, RecordNotFoundError, StatusError, ValidationError } from '../errors.js';

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
  const fastifyError = error as FastifyError;
  if (fastifyError?.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ApiError(413, { message: '413 Request Entity Too Large' });
    if (fastifyError.statusCode === 415) return new ApiError(415, { message: '415 Unsupported Media Type' });
    return new ApiError(fastifyError.statusCode, { message: `${fastifyError.statusCode} ${fastifyError.message}` });
  }
  return null;
}

export function apiErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const apiError = toApiError(error);
  if (apiError) {
    reply.code(apiError.status).headers(apiError.headers).send(apiError.body);
    return;
  }
  request.log.error({ err: error }, 'unhandled error');
  reply.code(500).send({ message: '500 Internal Server Error' });
}
