// The one way to declare an API route: parameters (validated in Grape's words and published in the
// OpenAPI document), authentication and scopes, then a thin handler that calls one action or finder.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SelectQueryBuilder } from 'kysely';
import type { Deps } from '../deps.js';
import type { Principal } from '../auth/principal.js';
import type { GroupAccess, PrefetchedProject, ProjectAccess, RouteAbility } from '../auth/subjects.js';
import { declaredSubject, groupOf, projectOf, resolveSubject, urlHasParam, type DeclaredSubject, type SubjectAccess } from '../auth/route-subject.js';
import { sendThrottled } from '../rate-limit.js';
import { applySudo, authenticate, authenticateForProject, checkActive, checkScopes } from './authenticate.js';
import { canOnInstance } from '../auth/policies/policy.js';
import type { GroupAbility, ProjectAbility } from '../auth/policies/abilities.js';
import { ForbiddenError } from '../errors.js';
import { unauthorized } from './api-error.js';
import { mergedParams, parseParams, type ParamSchema, type Parsed } from './params.js';
import { paginate, type OnePass } from './pagination.js';
import { openApiRegistry } from './openapi.js';
import { JsonText } from './json-text.js';
import { identifyAnswer } from './etag.js';

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
  /**
   * The project named by the route's path parameter, found and checked against the route's declared
   * ability by the kit before the handler ran (404 when unreadable, 403 without the ability). With
   * another `ability`, that one is checked on the same project (403 without it).
   */
  project(ability?: ProjectAbility): Promise<ProjectAccess>;
  /** The group named by the route's path parameter, as `project` does for projects. */
  group(ability?: GroupAbility): Promise<GroupAccess>;
  /** Page an ordered query with GitLab's headers. */
  paginate<Row>(query: SelectQueryBuilder<any, any, Row>): Promise<Row[]>;
  /** `paginate` with the count read by the page's own statement (pagination.ts, `in-page`). */
  paginateWithCount<Row>(query: SelectQueryBuilder<any, any, Row>): Promise<Row[]>;
  /** `paginate` of a query with few rows (a search's matches), page and count in one pass (pagination.ts, `OnePass`). */
  paginateInOnePass<Row>(query: SelectQueryBuilder<any, any, Row>, onePass: OnePass): Promise<Row[]>;
}

export interface ApiRouteSpec<S extends ParamSchema> {
  method: Method;
  /** Path under /api/v4, Fastify syntax: `/projects/:id/environments`. */
  url: string;
  summary: string;
  tags: string[];
  params?: S;
  /** What the caller must be allowed to do (platform/auth/policies); every route declares one. */
  ability: RouteAbility;
  /** `required` (the default) or `optional`: anonymous callers reach the ability check (public resources). */
  auth?: 'required' | 'optional';
  /** Scopes admitted besides `api`/`read_api`, e.g. `read_user` on the events endpoints. */
  extraScopes?: string[];
  /**
   * CI job tokens (`JOB-TOKEN`, `job_token`) are accepted, as on GitLab's `job_token_allowed`
   * endpoints: the running job's user acts, on the declared project only when the job's project may
   * reach it (403 otherwise), and not once the job ended (401).
   */
  jobToken?: boolean;
  paginated?: boolean;
  /** Success status; a handler returning `undefined` answers 204 with no body. */
  status?: number;
  /** Bytes of body accepted, for routes that take files (Fastify's default, 1 MiB, otherwise). */
  bodyLimit?: number;
  handler: (context: RouteContext<S>) => Promise<unknown>;
}

export const API_PREFIX = '/api/v4';

/**
 * The handler's context as a class rather than an object literal of closures: closures over the
 * handler's `request`, `reply` and `input` kept each request's objects alive through the next
 * young-generation collections (measured: scavenges of 5-10 ms instead of 0.5, ~20% of a fast
 * request's CPU). The methods are arrow properties so that handlers may destructure them.
 */
class ApiRouteContext<S extends ParamSchema> implements RouteContext<S> {
  constructor(
    readonly request: FastifyRequest,
    readonly reply: FastifyReply,
    readonly deps: Deps,
    readonly params: Parsed<S>,
    readonly input: Record<string, unknown>,
    readonly principal: Principal | null,
    private readonly subject: DeclaredSubject | null,
    /** The declared subject, found and checked before the handler (null for routes that declare none). */
    private readonly access: SubjectAccess | null,
  ) {}

  readonly project = async (ability?: ProjectAbility): Promise<ProjectAccess> => projectOf(this.subject, this.access, ability);

  readonly group = async (ability?: GroupAbility): Promise<GroupAccess> => groupOf(this.subject, this.access, ability);

  get actor(): Principal {
    if (!this.principal) throw unauthorized();
    return this.principal;
  }

  readonly paginate = <Row>(query: SelectQueryBuilder<any, any, Row>): Promise<Row[]> =>
    paginate(this.deps.db, this.deps.reads, this.deps.config.baseUrl, this.request, this.reply, this.input, query);

  readonly paginateWithCount = <Row>(query: SelectQueryBuilder<any, any, Row>): Promise<Row[]> =>
    paginate(this.deps.db, this.deps.reads, this.deps.config.baseUrl, this.request, this.reply, this.input, query, 'in-page');

  readonly paginateInOnePass = <Row>(query: SelectQueryBuilder<any, any, Row>, onePass: OnePass): Promise<Row[]> =>
    paginate(this.deps.db, this.deps.reads, this.deps.config.baseUrl, this.request, this.reply, this.input, query, onePass);
}

export function apiRoute<S extends ParamSchema>(app: FastifyInstance, deps: Deps, spec: ApiRouteSpec<S>): void {
  const route = `${spec.method} ${spec.url}`;
  const subject = declaredSubject(spec.ability, route, 'id', (param) => urlHasParam(spec.url, param));
  openApiRegistry(app).add(spec);
  const schema = (spec.params ?? {}) as S;
  app.route({
    method: spec.method,
    url: `${API_PREFIX}${spec.url}`,
    config: { ability: spec.ability, subjectChecked: subject !== null },
    ...(spec.bodyLimit === undefined ? {} : { bodyLimit: spec.bodyLimit }),
    handler: (request, reply) => handle(request, reply),
  });

  async function handle(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const input = mergedParams(request);
    // A route that names a project reads it with the caller's token, in one statement.
    const options = { jobToken: spec.jobToken === true };
    let { principal, project: prefetched } =
      subject?.kind === 'project' ? await authenticateForProject(deps.auth, request, input, String(input[subject.param]), options) : { principal: await authenticate(deps.auth, request, input, options), project: null as PrefetchedProject | null };
    const authenticated = principal;
    // The user and IP rate limits, counted for the token's own user (or the address).
    const throttled = deps.auth.throttle ? await deps.auth.throttle(request, authenticated?.user ?? null, 'api') : null;
    if (throttled) return sendThrottled(reply, throttled);
    const sudo = (request.headers.sudo as string | undefined) ?? (typeof input.sudo === 'string' ? input.sudo : undefined);
    // The endpoint's scope is required of the token whether or not it acts through Sudo (GitLab
    // checks both: `sudo` to switch users, `api`/`read_api`… for the endpoint itself).
    if (principal) checkScopes(principal, request.method, { extraScopes: spec.extraScopes });
    principal = await applySudo(deps.auth, principal, sudo);
    // Read for the token's own user: another user's access is read anew.
    if (principal !== authenticated) prefetched = null;
    if (principal) checkActive(principal);
    if (!principal && spec.auth !== 'optional') throw unauthorized();
    if ('instance' in spec.ability && !canOnInstance(principal?.user ?? null, spec.ability.instance)) {
      if (!principal) throw unauthorized();
      throw new ForbiddenError();
    }
    request.principal = principal;
    const params = parseParams(input, schema);
    // The declared subject and its ability, before the handler.
    const access = subject === null ? null : await resolveSubject(deps.auth.subjects, subject, principal, String(input[subject.param]), prefetched ?? undefined);
    if (principal?.job && access && 'project' in access) await checkJobTokenReach(deps, principal.job, access.project);
    const context = new ApiRouteContext(request, reply, deps, params, input, principal, subject, access);
    const body = await spec.handler(context);
    // The handler answered itself (GitLab's not_modified!: a 304 without a body).
    if (reply.sent) return reply;
    if (body === undefined) {
      reply.code(spec.status ?? 204).send();
      return reply;
    }
    reply.code(spec.status ?? (spec.method === 'POST' ? 201 : 200));
    if (body instanceof JsonText) {
      reply.type('application/json');
      if (body.identity !== undefined) identifyAnswer(reply, body.identity);
      return body.text;
    }
    return body;
  }
}

/** A job token reaches its own project and those whose job token scope allows its project (GitLab's message otherwise). */
async function checkJobTokenReach(deps: Deps, job: NonNullable<Principal['job']>, target: ProjectAccess['project']): Promise<void> {
  if (deps.auth.jobTokenReaches && (await deps.auth.jobTokenReaches(job.projectId, Number(target.id)))) return;
  throw new ForbiddenError(`Authentication by CI/CD job token not allowed from ${job.projectPath} to ${target.path}.`);
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}
