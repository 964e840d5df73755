// Project and group access tokens (GitLab's lib/api/resource_access_tokens.rb) and impersonation
// tokens (lib/api/users.rb): tokens of a bot member with a role, for the project's maintainers and the
// group's owners; and tokens an administrator makes to act as a user.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { NotFoundError } from '../platform/errors.js';
import type { PolicySubject } from '../platform/auth/policies/index.js';
import { tokenEntity } from './token-entities.js';
import type { MemberSource } from './member-source.js';
import { findResourceToken, listedResourceTokensQuery, type ResourceTokenRow } from './resource-access-tokens-finder.js';
import { createResourceAccessToken } from './create-resource-access-token.js';
import { revokeResourceAccessToken } from './revoke-resource-access-token.js';
import { rotateResourceAccessToken } from './rotate-resource-access-token.js';
import { createPersonalAccessToken, scopesAvailableTo } from './create-personal-access-token.js';
import { revokePersonalAccessToken } from './revoke-personal-access-token.js';
import { findUser } from './lookup.js';
import { today } from './access.js';

const LEVELS = ['10', '20', '30', '40', '50'];

/** GitLab's ResourceAccessToken entity: the token's, with the bot's role. */
function resourceTokenEntity(row: ResourceTokenRow, now: number) {
  return { ...tokenEntity(row, now), access_level: Number(row.access_level) };
}

type Resource = { kind: 'projects' | 'groups'; ability: { project: 'admin_project' } | { group: 'admin_group' }; label: string };

const RESOURCES: Resource[] = [
  { kind: 'projects', ability: { project: 'admin_project' }, label: 'project' },
  { kind: 'groups', ability: { group: 'admin_group' }, label: 'group' },
];

export function accessTokensRoutes(app: FastifyInstance, deps: Deps): void {
  for (const resource of RESOURCES) {
    const TAGS = [`${resource.label}_access_tokens`];
    // The checked project or group, as a membership source and the caller's standing there.
    const sourceOf = async (context: { project(): Promise<PolicySubject & { project: { id: number } }>; group(): Promise<PolicySubject & { group: { id: number } }> }) => {
      if (resource.kind === 'projects') {
        const access = await context.project();
        return { source: { type: 'Project', id: Number(access.project.id) } as MemberSource, access };
      }
      const access = await context.group();
      return { source: { type: 'Namespace', id: Number(access.group.id) } as MemberSource, access };
    };

    apiRoute(app, deps, {
      method: 'GET', url: `/${resource.kind}/:id/access_tokens`, summary: `A ${resource.label}'s access tokens`, tags: TAGS, paginated: true,
      ability: resource.ability,
      params: { id: p.string.required(), state: p.string.optional({ values: ['active', 'inactive'] }) },
      handler: async (context) => {
        const { source } = await sourceOf(context);
        const now = deps.clock.now();
        return (await context.paginate(listedResourceTokensQuery(deps, source, context.params.state as 'active' | 'inactive' | undefined))).map((row) => resourceTokenEntity(row, now));
      },
    });

    apiRoute(app, deps, {
      method: 'GET', url: `/${resource.kind}/:id/access_tokens/:token_id`, summary: `One of a ${resource.label}'s access tokens`, tags: TAGS,
      ability: resource.ability,
      params: { id: p.string.required(), token_id: p.integer.required() },
      handler: async (context) => {
        const { source } = await sourceOf(context);
        const row = await findResourceToken(deps, source, context.params.token_id);
        if (!row) throw new NotFoundError();
        return resourceTokenEntity(row, deps.clock.now());
      },
    });

    apiRoute(app, deps, {
      method: 'POST', url: `/${resource.kind}/:id/access_tokens`, summary: `Create a ${resource.label} access token (a bot member with a role)`, tags: TAGS,
      ability: resource.ability,
      params: {
        id: p.string.required(),
        name: p.string.required(),
        scopes: p.strings.required(),
        access_level: p.string.optional({ values: LEVELS }),
        expires_at: p.date.optional(),
      },
      handler: async (context) => {
        const { params } = context;
        const { source, access } = await sourceOf(context);
        const { row, token } = await createResourceAccessToken(deps, access, source, {
          name: params.name, scopes: params.scopes, accessLevel: Number(params.access_level ?? 40), expiresAt: params.expires_at ?? null,
        });
        return { ...resourceTokenEntity(row, deps.clock.now()), token };
      },
    });

    apiRoute(app, deps, {
      method: 'POST', url: `/${resource.kind}/:id/access_tokens/:token_id/rotate`, summary: `Rotate a ${resource.label} access token`, tags: TAGS,
      ability: resource.ability,
      params: { id: p.string.required(), token_id: p.integer.required(), expires_at: p.date.optional() },
      handler: async (context) => {
        const { source } = await sourceOf(context);
        const { row, token } = await rotateResourceAccessToken(deps, source, context.params.token_id, context.params.expires_at);
        return { ...resourceTokenEntity(row, deps.clock.now()), token };
      },
    });

    apiRoute(app, deps, {
      method: 'DELETE', url: `/${resource.kind}/:id/access_tokens/:token_id`, summary: `Revoke a ${resource.label} access token`, tags: TAGS,
      ability: resource.ability,
      params: { id: p.string.required(), token_id: p.integer.required() },
      handler: async (context) => {
        const { source } = await sourceOf(context);
        await revokeResourceAccessToken(deps, source, context.params.token_id);
        return undefined;
      },
    });
  }

  impersonationTokensRoutes(app, deps);
}

function impersonationTokensRoutes(app: FastifyInstance, deps: Deps): void {
  const TAGS = ['impersonation_tokens'];
  const present = (row: Parameters<typeof tokenEntity>[0]) => ({ ...tokenEntity(row, deps.clock.now()), impersonation: true });
  const tokensOf = (userId: number) => deps.db.selectFrom('personal_access_tokens').selectAll().where('user_id', '=', userId).where('impersonation', '=', 1);
  const findImpersonationToken = async (userId: number, tokenId: number) => {
    const user = await findUser(deps, userId);
    const row = await tokensOf(Number(user.id)).where('id', '=', tokenId).executeTakeFirst();
    if (!row) throw new NotFoundError('Impersonation Token');
    return row;
  };

  apiRoute(app, deps, {
    method: 'GET', url: '/users/:user_id/impersonation_tokens', summary: "A user's impersonation tokens (administrators)", tags: TAGS, paginated: true,
    ability: { instance: 'admin_all_resources' },
    params: { user_id: p.integer.required(), state: p.string.optional({ values: ['all', 'active', 'inactive'] }) },
    handler: async ({ params, paginate }) => {
      const user = await findUser(deps, params.user_id);
      const day = today(deps.clock.now());
      let query = tokensOf(Number(user.id));
      if (params.state === 'active') query = query.where('revoked', '=', 0).where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>=', day)]));
      if (params.state === 'inactive') query = query.where((eb) => eb.or([eb('revoked', '=', 1), eb('expires_at', '<', day)]));
      return (await paginate(query.orderBy('id'))).map(present);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/users/:user_id/impersonation_tokens/:impersonation_token_id', summary: 'One impersonation token (administrators)', tags: TAGS,
    ability: { instance: 'admin_all_resources' },
    params: { user_id: p.integer.required(), impersonation_token_id: p.integer.required() },
    handler: async ({ params }) => {
      return present(await findImpersonationToken(params.user_id, params.impersonation_token_id));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/users/:user_id/impersonation_tokens', summary: 'Create a token to act as a user (administrators)', tags: TAGS,
    ability: { instance: 'admin_all_resources' },
    params: { user_id: p.integer.required(), name: p.string.required(), scopes: p.strings.required(), expires_at: p.date.optional() },
    handler: async ({ params }) => {
      const user = await findUser(deps, params.user_id);
      const { row, token } = await createPersonalAccessToken(deps, { userId: Number(user.id), name: params.name, scopes: params.scopes, expiresAt: params.expires_at, impersonation: true, availableScopes: scopesAvailableTo(Boolean(user.admin)) });
      return { ...present(row), token };
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/users/:user_id/impersonation_tokens/:impersonation_token_id', summary: 'Revoke an impersonation token (administrators)', tags: TAGS,
    ability: { instance: 'admin_all_resources' },
    params: { user_id: p.integer.required(), impersonation_token_id: p.integer.required() },
    handler: async ({ params }) => {
      const row = await findImpersonationToken(params.user_id, params.impersonation_token_id);
      await revokePersonalAccessToken(deps, Number(row.id));
      return undefined;
    },
  });
}
