// The one way to declare an API route: parameters (validated in Grape's words and published in the
// OpenAPI document), authentication and scopes, then a thin handler that calls one action or finder.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SelectQueryBuilder } from 'kysely';
import type { Deps } from '../deps.js';
import type { Principal } from '../auth/principal.js';
import type { GroupAccess, PrefetchedProject, ProjectAccess, RouteAbility } from '../auth/subjects.js';
import { applySudo, authenticate, authenticateForProject, checkActive, checkScopes } from './authenticate.js';
import { canOnInstance } from '../auth/policies/policy.js';
import { accessScope } from '../auth/access-scope.js';
import type { GroupAbility, ProjectAbility } from '../auth/policies/abilities.js';
import { ForbiddenError } from '../errors.js';
import { unauthorized } from './api-error.js';
import { mergedParams, parseParams, type ParamSchema, type Parsed } from './params.js';
import { cachedPage, cachedPresentedPage, paginate, type CachedListing, type Page, type PresentedPage } from './pagination.js';
import { openApiRegistry } from './openapi.js';
import { JsonText } from './json-text.js';
import { replayCandidate, startReplayReading, type ReplayReading } from './answer-replay.js';

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
   * The project named by the route's path parameter, readable by the caller and allowing the route's
   * declared ability (or `ability`): 404 when unreadable, 403 without the ability.
   */
  project(ability?: ProjectAbility): Promise<ProjectAccess>;
  /** The group named by the route's path parameter, as `project` does for projects. */
  group(ability?: GroupAbility): Promise<GroupAccess>;
  /** Page an ordered query with GitLab's headers. */
  paginate<Row>(query: SelectQueryBuilder<any, any, Row>): Promise<Row[]>;
  /**
   * A presented page, cached per database version for this route, the caller's access scope and
   * `listing.key` (pagination.ts `cachedPage`).
   */
  cachedPage<Row, Out>(listing: CachedListing<Row, Out>): Promise<JsonText>;
  /**
   * A page that one statement returns presented with its count (`fetch`), cached as `cachedPage` is:
   * `key` names every input of `fetch` besides the page, the data and the caller.
   */
  cachedPresentedPage(key: unknown[], fetch: (page: Page) => Promise<PresentedPage>): Promise<JsonText>;
  /**
   * The answer of `compute`, remembered until the database changes (the read cache's `memo`) for this
   * route, the caller's access scope (user, admin flag, the day memberships expire by) and `key`:
   * every other input of `compute` (the path's ids, filters). A hit runs no access check: the same
   * caller asked the same thing of the same data. The answer is shared: never change it.
   */
  cachedAnswer<T>(key: unknown[], compute: () => Promise<T>): Promise<T>;
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
  paginated?: boolean;
  /** Success status; a handler returning `undefined` answers 204 with no body. */
  status?: number;
  handler: (context: RouteContext<S>) => Promise<unknown>;
}

export const API_PREFIX = '/api/v4';

/** Readings of a route that answer nothing from the cache before it stops being read for replay. */
const REPLAY_TRIES = 100;

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
    private readonly ability: RouteAbility,
    /** The route's method and URL, the first part of its cache keys. */
    private readonly route: string,
    /** The project the route names, read with the caller's token (authenticateForProject); used once. */
    private prefetched: PrefetchedProject | null,
    /** The read cache's `commitChecks()` when the request arrived: its answers need no newer check. */
    private readonly arrivedAt: number | undefined,
  ) {}

  /** What the last `cachedAnswer` or cached page gave: a handler that returns it answered from the cache. */
  answered: unknown = undefined;

  readonly project = (ability?: ProjectAbility): Promise<ProjectAccess> => {
    const declared = this.ability;
    if (!('project' in declared)) throw new Error('this route declares no project ability');
    // A second call (after a write, say) reads the project anew.
    const prefetched = this.prefetched ?? undefined;
    this.prefetched = null;
    return this.deps.auth.subjects!.project(this.principal, String(this.input[declared.param ?? 'id']), ability ?? declared.project, prefetched);
  };

  readonly group = (ability?: GroupAbility): Promise<GroupAccess> => {
    const declared = this.ability;
    if (!('group' in declared)) throw new Error('this route declares no group ability');
    return this.deps.auth.subjects!.group(this.principal, String(this.input[declared.param ?? 'id']), ability ?? declared.group);
  };

  get actor(): Principal {
    if (!this.principal) throw unauthorized();
    return this.principal;
  }

  readonly paginate = <Row>(query: SelectQueryBuilder<any, any, Row>): Promise<Row[]> =>
    paginate(this.deps.db, this.deps.readCache, this.deps.config.baseUrl, this.request, this.reply, this.input, query);

  // The caching methods are getters, so that only the handlers that use them pay for their closure.
  get cachedPage(): RouteContext<S>['cachedPage'] {
    return (listing) => this.note(cachedPage(this.deps.db, this.deps.readCache, this.deps.config.baseUrl, this.request, this.reply, this.input, this.scopedKey(listing.key), listing, this.arrivedAt));
  }

  get cachedPresentedPage(): RouteContext<S>['cachedPresentedPage'] {
    return (key, fetch) => this.note(cachedPresentedPage(this.deps.readCache, this.deps.config.baseUrl, this.request, this.reply, this.input, this.scopedKey(key), fetch, this.arrivedAt));
  }

  get cachedAnswer(): RouteContext<S>['cachedAnswer'] {
    return (key, compute) => this.note(this.deps.readCache.memo(this.scopedKey(key), compute, this.arrivedAt));
  }

  private async note<T>(answer: Promise<T>): Promise<T> {
    return (this.answered = await answer);
  }

  /**
   * Every cache key of a route's answer: the route, who asks (access-scope.ts), then the route's own
   * inputs. None with the read cache off, which keeps nothing under it (~2 µs a request saved).
   */
  private scopedKey(key: unknown[]): string {
    if (!this.deps.readCache.caching) return '';
    return `${this.route}\u0000${accessScope(this.principal?.user ?? null, this.deps.clock.now())}\u0000${JSON.stringify(key)}`;
  }
}

export function apiRoute<S extends ParamSchema>(app: FastifyInstance, deps: Deps, spec: ApiRouteSpec<S>): void {
  openApiRegistry(app).add(spec);
  const schema = (spec.params ?? {}) as S;
  const route = `${spec.method} ${spec.url}`;
  // Noting what a request reads costs every statement of every request in flight (answer-replay.ts):
  // a route that answered none of its first readings from the cache is not read for replay again.
  let answeredFromCache = false;
  let notFromCache = 0;
  app.route({
    method: spec.method,
    url: `${API_PREFIX}${spec.url}`,
    config: { ability: spec.ability },
    handler: (request, reply) => {
      const arrivedAt = deps.readCache.commitChecks?.();
      // A GET that only its token header and URL decide may be kept and replayed (answer-replay.ts).
      const replayable = answeredFromCache || notFromCache < REPLAY_TRIES ? startReplayReading(deps.readCache, request) : null;
      if (replayable === null) return handle(request, reply, arrivedAt, null);
      return handle(request, reply, arrivedAt, replayable).catch((error: unknown) => {
        replayable.reading.end();
        throw error;
      });
    },
  });

  async function handle(request: FastifyRequest, reply: FastifyReply, arrivedAt: number | undefined, replayable: ReplayReading | null): Promise<unknown> {
    const input = mergedParams(request);
    const declared = spec.ability;
    // A route that names a project reads it with the caller's token, in one statement.
    let { principal, project: prefetched } =
      'project' in declared ? await authenticateForProject(deps.auth, request, input, String(input[declared.param ?? 'id'])) : { principal: await authenticate(deps.auth, request, input), project: null };
    const authenticated = principal;
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
    const context = new ApiRouteContext(request, reply, deps, params, input, principal, spec.ability, route, prefetched, arrivedAt);
    const body = await spec.handler(context);
    if (replayable) {
      // Already answered (a timeout, say): nothing to keep, and no onSend will end the reading.
      const fromCache = !reply.sent && body !== undefined && body === context.answered;
      if (fromCache) answeredFromCache = true;
      else notFromCache += 1;
      request.replay = replayCandidate(replayable, request, input, principal, fromCache);
    }
    if (body === undefined) {
      reply.code(spec.status ?? 204).send();
      return reply;
    }
    reply.code(spec.status ?? (spec.method === 'POST' ? 201 : 200));
    if (body instanceof JsonText) {
      reply.type('application/json');
      return body.text;
    }
    return body;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}
