// Changing and deleting groups through the API, and what they hold: projects, subgroups, descendants.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { NotFoundError, ParamError } from '../platform/errors.js';
import type { Visibility } from '../platform/db/tables/accounts.js';
import { updateGroup } from './update-group.js';
import { transferGroup } from './transfer-group.js';
import { transferProject } from './transfer-project.js';
import { findGroup, findProject } from './lookup.js';
import { scheduleGroupDeletion } from './schedule-group-deletion.js';
import { groupProjectsQuery, subgroupsQuery } from './group-listings.js';
import { avatarChange } from './avatar-change.js';
import { findAvatar } from './avatars-finder.js';
import { settingParams } from './stored-settings.js';
import { GROUP_SETTING_ALIASES, GROUP_STORED_SETTINGS } from './settings-tables.js';
import { namespacesOf } from './finders.js';
import { groupEntity, projectEntity, projectSimpleEntity } from './entities.js';
import { groupDetailEntity } from './group-detail.js';

const VISIBILITIES = ['private', 'internal', 'public'] as const;
const PROJECT_ORDER = ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at'] as const;
const GROUP_ORDER = ['name', 'path', 'id'] as const;

const UPDATE_PARAMS = {
  name: p.string.optional(),
  path: p.string.optional(),
  description: p.string.optional(),
  visibility: p.string.optional({ values: VISIBILITIES }),
  avatar: p.json.optional({ description: 'An image file (multipart/form-data); empty to remove the avatar' }),
  ...settingParams(GROUP_STORED_SETTINGS, GROUP_SETTING_ALIASES),
};

function integers(values: string[] | undefined, name: string): number[] {
  const ids = (values ?? []).map(Number);
  if (ids.some((id) => !Number.isSafeInteger(id))) throw new ParamError(`${name} is invalid`);
  return ids;
}

export function groupEditRoutes(app: FastifyInstance, deps: Deps): void {
  const base = deps.config.baseUrl;

  apiRoute(app, deps, {
    method: 'PUT', url: '/groups/:id', summary: 'Change a group: name and path, description, visibility, avatar (owners)', tags: ['groups'],
    ability: { group: 'admin_group' },
    params: { id: p.string.required(), ...UPDATE_PARAMS },
    handler: async ({ params, input, group, principal }) => {
      const access = await group();
      const updated = await updateGroup(deps, access, {
        name: params.name,
        path: params.path,
        description: params.description,
        visibility: params.visibility as Visibility | undefined,
        avatar: input.avatar === undefined ? undefined : avatarChange(input.avatar),
        stored: params,
      });
      // GitLab answers the GroupDetail, as GET /groups/:id does.
      return groupDetailEntity(deps, principal?.user ?? null, updated);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/groups/:id/avatar', summary: "Download a group's avatar", tags: ['groups'],
    ability: { group: 'read_group' }, auth: 'optional',
    params: { id: p.string.required() },
    handler: async ({ group, reply }) => {
      const access = await group();
      const avatar = access.group.avatar === null ? undefined : await findAvatar(deps.db, 'Namespace', Number(access.group.id));
      if (!avatar) throw new NotFoundError('Avatar');
      reply.type(avatar.content_type).header('content-disposition', `attachment; filename="${avatar.filename}"`).header('x-content-type-options', 'nosniff');
      return Buffer.from(avatar.data);
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/groups/:id', summary: 'Delete a group with its subgroups and projects (a background job; owners)', tags: ['groups'], status: 202,
    ability: { group: 'remove_group' },
    params: { id: p.string.required() },
    handler: async ({ actor, group }) => {
      await scheduleGroupDeletion(deps, actor, await group());
      return { message: '202 Accepted' };
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/groups/:id/transfer', summary: 'Move a group under another group, or to the top level without group_id', tags: ['groups'],
    // The new parent's create_subgroup (or the instance's create_group) is asked by transferGroup.
    ability: { group: 'admin_group' },
    params: { id: p.string.required(), group_id: p.integer.optional({ description: 'The new parent group; none for the top level' }) },
    handler: async ({ params, actor, group }) => groupEntity(base, await transferGroup(deps, actor, await group(), params.group_id)),
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/groups/:id/projects/:project_id', summary: 'Move a project into the group (administrators)', tags: ['groups'],
    ability: { instance: 'admin_all_resources' },
    params: { id: p.string.required(), project_id: p.string.required() },
    handler: async ({ params, actor }) => {
      const target = await findGroup(deps, actor, params.id);
      await transferProject(deps, actor, await findProject(deps, actor, params.project_id), String(target.group.id));
      return groupEntity(base, target.group);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/groups/:id/projects', summary: "A group's projects that you can see", tags: ['groups'], paginated: true,
    ability: { group: 'read_group' }, auth: 'optional',
    params: {
      id: p.string.required(),
      visibility: p.string.optional({ values: VISIBILITIES }),
      search: p.string.optional(),
      order_by: p.string.optional({ values: PROJECT_ORDER }),
      sort: p.string.optional({ values: ['asc', 'desc'] }),
      simple: p.boolean.optional(),
      owned: p.boolean.optional(),
      starred: p.boolean.optional(),
      with_issues_enabled: p.boolean.optional(),
      include_subgroups: p.boolean.optional(),
      with_shared: p.boolean.optional({ description: 'Include the projects shared with the group (default true)' }),
    },
    handler: async ({ params, principal, group, paginate }) => {
      const access = await group();
      const query = await groupProjectsQuery(deps, principal?.user ?? null, access.group, {
        visibility: params.visibility,
        search: params.search,
        orderBy: params.order_by as (typeof PROJECT_ORDER)[number] | undefined,
        sort: params.sort as 'asc' | 'desc' | undefined,
        owned: params.owned,
        starred: params.starred,
        withIssuesEnabled: params.with_issues_enabled,
        includeSubgroups: params.include_subgroups,
        withShared: params.with_shared,
      });
      const rows = await paginate(query);
      const namespaces = await namespacesOf(deps, rows);
      return rows.map((row) => (params.simple ? projectSimpleEntity : projectEntity)(deps.config, row, namespaces.get(Number(row.namespace_id))!));
    },
  });

  for (const [path, descendants] of [['subgroups', false], ['descendant_groups', true]] as const) {
    apiRoute(app, deps, {
      method: 'GET', url: `/groups/:id/${path}`, summary: descendants ? 'Every group below a group that you can see' : "A group's direct subgroups that you can see", tags: ['groups'], paginated: true,
      ability: { group: 'read_group' }, auth: 'optional',
      params: {
        id: p.string.required(),
        search: p.string.optional(),
        owned: p.boolean.optional(),
        skip_groups: p.strings.optional(),
        order_by: p.string.optional({ values: GROUP_ORDER }),
        sort: p.string.optional({ values: ['asc', 'desc'] }),
      },
      handler: async ({ params, principal, group, paginate }) => {
        const access = await group();
        const query = await subgroupsQuery(deps, principal?.user ?? null, access.group, descendants, {
          search: params.search,
          owned: params.owned,
          skipGroups: integers(params.skip_groups, 'skip_groups'),
          orderBy: params.order_by as (typeof GROUP_ORDER)[number] | undefined,
          sort: params.sort as 'asc' | 'desc' | undefined,
        });
        return (await paginate(query)).map((row) => groupEntity(base, row));
      },
    });
  }
}
