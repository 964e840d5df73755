// apiRoute for the repository API: a service refusal (errors.ts) becomes GitLab's
// `{"message": …}` answer here, so actions stay free of HTTP.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { apiRoute, type ApiRouteSpec } from '../../platform/http/route.js';
import { ApiError } from '../../platform/http/api-error.js';
import type { ParamSchema } from '../../platform/http/params.js';
import { RepositoryApiError } from './errors.js';

export function repositoryRoute<S extends ParamSchema>(app: FastifyInstance, deps: Deps, spec: ApiRouteSpec<S>): void {
  apiRoute(app, deps, {
    ...spec,
    handler: async (context) => {
      try {
        return await spec.handler(context);
      } catch (error) {
        if (error instanceof RepositoryApiError) throw new ApiError(error.status, error.errorCode ? { message: error.message, error_code: error.errorCode } : { message: error.message });
        throw error;
      }
    },
  });
}
