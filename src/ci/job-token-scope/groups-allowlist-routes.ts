// The job token scope's group allowlist (GitLab's /projects/:id/job_token_scope/groups_allowlist,
// Maintainers): groups whose projects' job tokens, subgroups' projects included, may reach the project.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { apiRoute } from '../../platform/http/route.js';
import { p } from '../../platform/http/params.js';
import { ApiError } from '../../platform/http/api-error.js';
import { NotFoundError } from '../../platform/errors.js';
import type { NamespaceRow } from '../../platform/auth/subjects.js';
import { findGroup, groupWebUrl } from '../../accounts/api.js';
import { addGroupToAllowlist, groupsAllowlistQuery, removeGroupFromAllowlist } from './scope-store.js';

const TAGS = ['ci'];
const ability = { project: 'admin_project' } as const;

/** GitLab's Entities::BasicGroupDetails. */
const basicGroup = (baseUrl: string, group: NamespaceRow) => ({ id: Number(group.id), web_url: groupWebUrl(baseUrl, group.full_path), name: group.name });

export function groupsAllowlistRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/job_token_scope/groups_allowlist', summary: 'The groups whose projects\' job tokens may reach this project', tags: TAGS, ability, paginated: true,
    params: { id: p.string.required() },
    handler: async ({ project, paginate }) => {
      const rows = (await paginate(groupsAllowlistQuery(deps.db, Number((await project()).project.id)))) as NamespaceRow[];
      return rows.map((row) => basicGroup(deps.config.baseUrl, row));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/job_token_scope/groups_allowlist', summary: "Allow a group's projects' job tokens to reach this project", tags: TAGS, ability, status: 201,
    params: { id: p.string.required(), target_group_id: p.integer.required() },
    handler: async ({ params, project, actor }) => {
      const source = (await project()).project;
      // A group the caller cannot see is refused as the project allowlist refuses one (GitLab's validations).
      const group = await findGroup(deps, actor, params.target_group_id).catch((error: unknown) => {
        if (!(error instanceof NotFoundError)) throw error;
        return null;
      });
      if (!group) {
        const exists = await deps.db.selectFrom('namespaces').select('id').where('id', '=', params.target_group_id).where('kind', '=', 'group').executeTakeFirst();
        if (!exists) throw new NotFoundError('target_group_id not found');
        throw new ApiError(400, { message: '400 Bad request - Insufficient permissions to modify the job token scope' });
      }
      if (!(await addGroupToAllowlist(deps.db, Number(source.id), Number(group.group.id), actor.user.id, deps.clock.now()))) {
        throw new ApiError(400, { message: '400 Bad request - Target group is already in the job token scope' });
      }
      return { source_project_id: Number(source.id), target_group_id: Number(group.group.id) };
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/job_token_scope/groups_allowlist/:target_group_id', summary: 'Remove a group from the allowlist', tags: TAGS, ability,
    params: { id: p.string.required(), target_group_id: p.integer.required() },
    handler: async ({ params, project }) => {
      const exists = await deps.db.selectFrom('namespaces').select('id').where('id', '=', params.target_group_id).where('kind', '=', 'group').executeTakeFirst();
      if (!exists) throw new NotFoundError('target_group_id not found');
      if (!(await removeGroupFromAllowlist(deps.db, Number((await project()).project.id), params.target_group_id))) {
        throw new ApiError(400, { message: '400 Bad request - Target group is not in the job token scope' });
      }
      return undefined;
    },
  });
}
