// GET /users/:id/memberships (administrators, doc/api/users.md "User memberships"): the projects and
// groups a user is a direct member of, each with its name and the level the membership gives, oldest
// first; `type` keeps one kind.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { findUser } from './lookup.js';

export function membershipsRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/users/:id/memberships', summary: 'The projects and groups a user is a member of (administrators)', tags: ['users'], paginated: true,
    ability: { instance: 'admin_all_resources' },
    params: { id: p.integer.required(), type: p.string.optional({ values: ['Project', 'Namespace'] }) },
    handler: async ({ params, paginate }) => {
      const user = await findUser(deps, params.id);
      let query = deps.db
        .selectFrom('members as m')
        .leftJoin('projects as project', (join) => join.onRef('project.id', '=', 'm.source_id').on('m.source_type', '=', 'Project'))
        .leftJoin('namespaces as group', (join) => join.onRef('group.id', '=', 'm.source_id').on('m.source_type', '=', 'Namespace'))
        .select(['m.source_id', 'm.source_type', 'm.access_level', 'project.name as project_name', 'group.name as group_name'])
        .where('m.user_id', '=', Number(user.id))
        .orderBy('m.id', 'asc');
      if (params.type) query = query.where('m.source_type', '=', params.type as 'Project' | 'Namespace');
      return (await paginate(query)).map((row) => ({
        source_id: Number(row.source_id),
        source_name: row.source_type === 'Project' ? row.project_name : row.group_name,
        source_type: row.source_type,
        access_level: Number(row.access_level),
      }));
    },
  });
}
