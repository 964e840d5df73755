// Sharing with a group (GitLab's POST/DELETE /groups/:id/share and /projects/:id/share): the invited
// group's members reach the group or project at the link's level at most (platform/auth/membership-queries.ts).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { shareGroup, unshareGroup } from './share-group.js';
import { shareProject, unshareProject } from './share-project.js';
import { groupDetailEntity } from './group-detail.js';

const SHARE_PARAMS = {
  id: p.string.required(),
  group_id: p.integer.required({ description: 'The group to share with' }),
  group_access: p.integer.required({ description: 'The highest level its members get: 10, 20, 30, 40 or 50' }),
  expires_at: p.date.optional({ description: 'The day the share ends (YYYY-MM-DD)' }),
};

const UNSHARE_PARAMS = { id: p.string.required(), group_id: p.integer.required() };

export function sharingRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'POST', url: '/groups/:id/share', summary: 'Share a group with another group', tags: ['groups'],
    ability: { group: 'admin_group' },
    params: SHARE_PARAMS,
    handler: async ({ params, actor, principal, group }) => {
      const access = await group();
      await shareGroup(deps, actor, access, { groupId: params.group_id, groupAccess: params.group_access, expiresAt: params.expires_at });
      return groupDetailEntity(deps, principal?.user ?? null, access.group);
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/groups/:id/share/:group_id', summary: 'Stop sharing a group with a group', tags: ['groups'],
    ability: { group: 'admin_group' },
    params: UNSHARE_PARAMS,
    handler: async ({ params, group }) => {
      await unshareGroup(deps, await group(), params.group_id);
      return undefined;
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/share', summary: 'Share a project with a group', tags: ['projects'],
    ability: { project: 'admin_project' },
    params: SHARE_PARAMS,
    handler: async ({ params, actor, project }) =>
      shareProject(deps, actor, await project(), { groupId: params.group_id, groupAccess: params.group_access, expiresAt: params.expires_at }),
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/share/:group_id', summary: 'Stop sharing a project with a group', tags: ['projects'],
    ability: { project: 'admin_project' },
    params: UNSHARE_PARAMS,
    handler: async ({ params, project }) => {
      await unshareProject(deps, await project(), params.group_id);
      return undefined;
    },
  });
}
