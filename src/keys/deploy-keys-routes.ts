// Deploy keys (GitLab's lib/api/deploy_keys.rb): the instance's list and public keys for
// administrators, and each project's keys for its maintainers — add (or enable an existing one),
// change `can_push` and the title, remove, enable a key from another project.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p, requireOneOf } from '../platform/http/params.js';
import { NotFoundError } from '../platform/errors.js';
import { deployKeyEntity, deployKeysProjectEntity } from './entities.js';
import { expiryParam as expiresAt } from './validate-key.js';
import { findProjectDeployKey, instanceDeployKeysQuery, projectDeployKeysQuery, type ProjectDeployKeyRow } from './deploy-keys-finder.js';
import { createProjectDeployKey, createPublicDeployKey } from './create-deploy-key.js';
import { enableDeployKey } from './enable-deploy-key.js';
import { updateDeployKey } from './update-deploy-key.js';
import { removeDeployKeyFromProject } from './remove-deploy-key.js';

const TAGS = ['deploy_keys'];

const present = (row: ProjectDeployKeyRow) => deployKeysProjectEntity(row, { can_push: row.link_can_push });

export function deployKeysRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/deploy_keys', summary: 'Every deploy key of the instance (administrators)', tags: TAGS, paginated: true,
    ability: { instance: 'admin_all_resources' },
    params: { public: p.boolean.optional() },
    handler: async ({ params, paginate }) => (await paginate(instanceDeployKeysQuery(deps, params.public))).map(deployKeyEntity),
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/deploy_keys', summary: 'Create a public deploy key any maintainer may enable (administrators)', tags: TAGS,
    ability: { instance: 'admin_all_resources' },
    params: { title: p.string.required(), key: p.string.required({ max: 100_000 }), expires_at: p.string.optional() },
    handler: async ({ params, actor }) =>
      deployKeyEntity(await createPublicDeployKey(deps, actor.user, { title: params.title, key: params.key, expiresAt: expiresAt(params.expires_at), usageType: 'auth' })),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/deploy_keys', summary: "A project's deploy keys", tags: TAGS, paginated: true,
    ability: { project: 'admin_project' },
    params: { id: p.string.required() },
    handler: async ({ project, paginate }) => (await paginate(projectDeployKeysQuery(deps, Number((await project()).project.id)))).map(present),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/deploy_keys/:key_id', summary: "One of a project's deploy keys", tags: TAGS,
    ability: { project: 'admin_project' },
    params: { id: p.string.required(), key_id: p.integer.required() },
    handler: async ({ params, project }) => {
      const row = await findProjectDeployKey(deps, Number((await project()).project.id), params.key_id);
      if (!row) throw new NotFoundError('Deploy Key');
      return present(row);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/deploy_keys', summary: 'Add a deploy key to a project, or enable an existing one there', tags: TAGS,
    ability: { project: 'admin_project' },
    params: { id: p.string.required(), title: p.string.required(), key: p.string.required({ max: 100_000 }), can_push: p.boolean.optional(), expires_at: p.string.optional() },
    handler: async ({ params, project, actor }) => {
      const projectId = Number((await project()).project.id);
      return present(await createProjectDeployKey(deps, actor.user, projectId, {
        title: params.title, key: params.key, expiresAt: expiresAt(params.expires_at), usageType: 'auth', canPush: params.can_push ?? false,
      }));
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/projects/:id/deploy_keys/:key_id', summary: "Change a deploy key's title or its push access on a project", tags: TAGS,
    ability: { project: 'admin_project' },
    params: { id: p.string.required(), key_id: p.integer.required(), title: p.string.optional(), can_push: p.boolean.optional() },
    handler: async ({ params, input, project, actor }) => {
      requireOneOf(input, ['title', 'can_push']);
      const projectId = Number((await project()).project.id);
      return present(await updateDeployKey(deps, actor.user, projectId, params.key_id, { title: params.title, canPush: params.can_push }));
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/deploy_keys/:key_id', summary: 'Remove a deploy key from a project', tags: TAGS,
    ability: { project: 'admin_project' },
    params: { id: p.string.required(), key_id: p.integer.required() },
    handler: async ({ params, project }) => {
      await removeDeployKeyFromProject(deps, Number((await project()).project.id), params.key_id);
      return undefined;
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/deploy_keys/:key_id/enable', summary: 'Enable on a project a deploy key of another project or a public one', tags: TAGS,
    ability: { project: 'admin_project' },
    params: { id: p.string.required(), key_id: p.integer.required() },
    handler: async ({ params, project, actor }) => deployKeyEntity(await enableDeployKey(deps, actor.user, Number((await project()).project.id), params.key_id)),
  });
}
