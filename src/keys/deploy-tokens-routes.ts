// Deploy tokens (GitLab's lib/api/deploy_tokens.rb): the instance's list for administrators, and each
// project's (Maintainers) and group's (Owners) tokens — list, get, create (the token answered once),
// delete.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { NotFoundError, ParamError } from '../platform/errors.js';
import { deployTokenEntity } from './entities.js';
import { expiryParam as expiresAt } from './validate-key.js';
import { deployTokensOfQuery, findDeployToken, instanceDeployTokensQuery, onlyActive, type DeployTokenOwner } from './deploy-tokens-finder.js';
import { createDeployToken, knownScopes } from './create-deploy-token.js';

const TAGS = ['deploy_tokens'];

function scopesOf(scopes: string[]): string[] {
  if (!knownScopes(scopes)) throw new ParamError('scopes does not have a valid value');
  return scopes;
}

type OwnerContext = { project(): Promise<{ project: { id: number } }>; group(): Promise<{ group: { id: number } }> };

const OWNERS = [
  { kind: 'project' as const, plural: 'projects', ability: { project: 'admin_project' as const }, of: async (context: OwnerContext) => ({ kind: 'project', id: Number((await context.project()).project.id) }) as DeployTokenOwner },
  { kind: 'group' as const, plural: 'groups', ability: { group: 'admin_group' as const }, of: async (context: OwnerContext) => ({ kind: 'group', id: Number((await context.group()).group.id) }) as DeployTokenOwner },
];

export function deployTokensRoutes(app: FastifyInstance, deps: Deps): void {
  const present = (row: Parameters<typeof deployTokenEntity>[0]) => deployTokenEntity(row, deps.clock.now());

  apiRoute(app, deps, {
    method: 'GET', url: '/deploy_tokens', summary: 'Every deploy token of the instance (administrators)', tags: TAGS, paginated: true,
    ability: { instance: 'admin_all_resources' },
    params: { active: p.boolean.optional() },
    handler: async ({ params, paginate }) => (await paginate(instanceDeployTokensQuery(deps, params.active === true))).map(present),
  });

  for (const owner of OWNERS) {
    apiRoute(app, deps, {
      method: 'GET', url: `/${owner.plural}/:id/deploy_tokens`, summary: `A ${owner.kind}'s deploy tokens`, tags: TAGS, paginated: true,
      ability: owner.ability,
      params: { id: p.string.required(), active: p.boolean.optional() },
      handler: async (context) => {
        let query = deployTokensOfQuery(deps, await owner.of(context));
        if (context.params.active) query = onlyActive(query, deps.clock.now());
        return (await context.paginate(query)).map(present);
      },
    });

    apiRoute(app, deps, {
      method: 'GET', url: `/${owner.plural}/:id/deploy_tokens/:token_id`, summary: `One of a ${owner.kind}'s deploy tokens`, tags: TAGS,
      ability: owner.ability,
      params: { id: p.string.required(), token_id: p.integer.required() },
      handler: async (context) => {
        const row = await findDeployToken(deps, await owner.of(context), context.params.token_id);
        if (!row) throw new NotFoundError();
        return present(row);
      },
    });

    apiRoute(app, deps, {
      method: 'POST', url: `/${owner.plural}/:id/deploy_tokens`, summary: `Create a ${owner.kind} deploy token`, tags: TAGS,
      ability: owner.ability,
      params: { id: p.string.required(), name: p.string.required(), scopes: p.strings.required(), expires_at: p.string.optional(), username: p.string.optional() },
      handler: async (context) => {
        const { params, actor } = context;
        const { row, token } = await createDeployToken(deps, actor.user.id, await owner.of(context), {
          name: params.name, scopes: scopesOf(params.scopes), username: params.username, expiresAt: expiresAt(params.expires_at),
        });
        return { ...present(row), token };
      },
    });

    apiRoute(app, deps, {
      method: 'DELETE', url: `/${owner.plural}/:id/deploy_tokens/:token_id`, summary: `Delete a ${owner.kind} deploy token`, tags: TAGS,
      ability: owner.ability,
      params: { id: p.string.required(), token_id: p.integer.required() },
      handler: async (context) => {
        const found = await findDeployToken(deps, await owner.of(context), context.params.token_id);
        if (!found) throw new NotFoundError();
        await deps.db.deleteFrom('deploy_tokens').where('id', '=', Number(found.id)).execute();
        return undefined;
      },
    });
  }
}
