// The one way to declare an API route: parameters (validated in Grape's words and published in the
// OpenAPI document), authentication and scopes, then a thin handler that calls one action or finder.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SelectQueryBuilder } from 'kysely';
import type { Deps } from '../deps.js';
import type { Principal } from '../auth/principal.js';
import { applySudo, authenticate, checkActive, checkScopes } from '../auth/authenticate.js';
import { unauthorized } from './api-error.js';
import { mergedParams, parseParams, type ParamSchema, type Parsed } from './params.js';
import { paginate } from './pagination.js';
import { openApiRegistry } from './openapi.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteContext<S extends ParamSchema> {
  request: FastifyRequest;
  reply: FastifyReply;
  deps: Deps;
  params: Parsed<S>;
  /** The raw merged parameter bag, for the rare check the schema cannot express. */
  input: Record<string, unknown>;
  principal: Principal | null;
  /** The authenticated caller; routes with `auth: 'required'` always have one. */
  actor: Principal;
  /** Page an ordered query with GitLab's headers. */
  paginate<Row>(query: SelectQueryBuilder<any, any, Row>): Promise<Row[]>;
}

export interface ApiRouteSpec<S extends ParamSchema> {
  method: Method;
  /** Path under /api/v4, Fastify syntax: `/projects/:id/environments`. */
  url: string;
  summary: string;
  tags: string[];
  params?: S;
  /** `required` (the default: the specification puts every REST endpoint behind authentication) or `optional`. */
  auth?: 'required' | 'optional';
  /** Scopes admitted besides `api`/`read_api`, e.g. `read_user` on the events endpoints. */
  extraScopes?: string[];
  paginated?: boolean;
  /** Success status; a handler returning `undefined` answers 204 with no body. */
  status?: number;
  handler: (context: RouteContext<S>) => Promise<unknown>;
}

export const API_PREFIX = '/api/v4';

export function apiRoute<S extends ParamSchema>(app: FastifyInstance, deps: Deps, spec: ApiRouteSpec<S>): void {
  openApiRegistry(app).add(spec);
  const schema = (spec.params ?? {}) as S;
  app.route({
    method: spec.method,
    url: `${API_PREFIX}${spec.url}`,
    handler: async (request, reply) => {
      const input = mergedParams(request);
      let principal = await authenticate(deps.auth, request, input);
      const sudo = (request.headers.sudo as string | undefined) ?? (typeof input.sudo === 'string' ? input.sudo : undefined);
      const sudoPrincipal = await applySudo(deps.auth, principal, sudo);
      if (principal && sudoPrincipal === principal) checkScopes(principal, request.method, { extraScopes: spec.extraScopes });
      principal = sudoPrincipal;
      if (principal) checkActive(principal);
      if (!principal && spec.auth !== 'optional') throw unauthorized();
      request.principal = principal;
      const params = parseParams(input, schema);
      const context: RouteContext<S> = {
        request,
        reply,
        deps,
        params,
        input,
        principal,
        get actor(): Principal {
          if (!principal) throw unauthorized();
          return principal;
        },
        paginate: (query) => paginate(deps.db, deps.reads, deps.config.baseUrl, request, reply, input, query),
      };
      const body = await spec.handler(context);
      if (body === undefined) {
        reply.code(spec.status ?? 204).send();
        return reply;
      }
      reply.code(spec.status ?? (spec.method === 'POST' ? 201 : 200));
      return body;
    },
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}
