// Changing a project through the API: settings and renames, transfer, stars, and who has access.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { ParamError } from '../platform/errors.js';
import { ApiError } from '../platform/http/api-error.js';
import type { Visibility } from '../platform/db/tables/accounts.js';
import type { ProjectAccess, ProjectRow } from '../platform/auth/subjects.js';
import { updateProject } from './update-project.js';
import { PROJECT_SETTING_PARAMS, projectSettingsInput } from './project-setting-params.js';
import { transferProject } from './transfer-project.js';
import { starProject } from './star-project.js';
import { unstarProject } from './unstar-project.js';
import { avatarChange } from './avatar-change.js';
import { UNSUPPORTED_PROJECT_PARAMS } from './unsupported-params.js';
import { namespaceOf, visibleGroupsQuery } from './finders.js';
import { projectUsersQuery } from './project-users-queries.js';
import { projectGroupsQuery } from './project-groups-queries.js';
import { groupEntity, projectEntity } from './entities.js';
import { starrerEntity, userBasic } from './user-entities.js';
import { starrersQuery } from './starrers-finder.js';

const VISIBILITIES = ['private', 'internal', 'public'] as const;

const UPDATE_PARAMS = {
  name: p.string.optional({ description: 'The name of the project' }),
  path: p.string.optional({ description: 'The path of the repository' }),
  ...PROJECT_SETTING_PARAMS,
  visibility: p.string.optional({ values: VISIBILITIES }),
  default_branch: p.string.optional(),
  avatar: p.json.optional({ description: 'An image file (multipart/form-data); empty to remove the avatar' }),
};

/** Grape's at_least_one_of, in its words. */
function requireOne(input: Record<string, unknown>, names: string[]): void {
  if (names.some((name) => input[name] !== undefined)) return;
  throw new ParamError(`${names.join(', ')} are missing, at least one parameter must be provided`);
}

/** GitLab's Gitlab::Access.all_values: the levels a group may be given on a shared project. */
const SHARED_ACCESS_LEVELS = [10, 15, 20, 30, 40, 50];

export function projectEditRoutes(app: FastifyInstance, deps: Deps): void {
  const base = deps.config.baseUrl;
  const present = async (access: ProjectAccess, project: ProjectRow) => projectEntity(deps.config, project, await namespaceOf(deps, project), access);

  apiRoute(app, deps, {
    method: 'PUT', url: '/projects/:id', summary: 'Change a project: settings, name and path, visibility, features, topics, default branch, avatar', tags: ['projects'],
    // Renaming asks rename_project and visibility change_visibility_level too (updateProject).
    ability: { project: 'admin_project' },
    params: { id: p.string.required(), ...UPDATE_PARAMS },
    handler: async ({ params, input, project }) => {
      requireOne(input, Object.keys(UPDATE_PARAMS).filter((name) => !(name in UNSUPPORTED_PROJECT_PARAMS)));
      const access = await project();
      const updated = await updateProject(deps, access, {
        ...projectSettingsInput(params),
        name: params.name,
        path: params.path,
        visibility: params.visibility as Visibility | undefined,
        defaultBranch: params.default_branch,
        avatar: input.avatar === undefined ? undefined : avatarChange(input.avatar),
      });
      return present(access, updated);
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/projects/:id/transfer', summary: 'Move a project into another namespace (owners)', tags: ['projects'], status: 200,
    ability: { project: 'change_namespace' },
    params: { id: p.string.required(), namespace: p.string.required({ description: 'The ID or path of the new namespace' }) },
    handler: async ({ params, actor, project }) => {
      const access = await project();
      const moved = await transferProject(deps, actor, access, params.namespace);
      return present(access, moved);
    },
  });

  for (const [action, change] of [['star', starProject], ['unstar', unstarProject]] as const) {
    apiRoute(app, deps, {
      method: 'POST', url: `/projects/:id/${action}`, summary: `${action === 'star' ? 'Star' : 'Unstar'} a project (304 when it already is${action === 'star' ? '' : ' not'})`, tags: ['projects'],
      ability: { project: 'read_project' },
      params: { id: p.string.required() },
      handler: async ({ actor, project }) => {
        const access = await project();
        if (!(await change(deps, actor.user.id, Number(access.project.id)))) throw new ApiError(304, { message: '304 Not Modified' });
        return present(access, await deps.db.selectFrom('projects').selectAll().where('id', '=', access.project.id).executeTakeFirstOrThrow());
      },
    });
  }

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/starrers', summary: 'Who starred a project', tags: ['projects'], paginated: true,
    ability: { project: 'read_project' }, auth: 'optional',
    params: { id: p.string.required(), search: p.string.optional() },
    handler: async ({ params, project, paginate }) => {
      const access = await project();
      return (await paginate(starrersQuery(deps, Number(access.project.id), params.search))).map((row) => starrerEntity(base, row));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/users', summary: 'Users with access to a project', tags: ['projects'], paginated: true,
    ability: { project: 'read_project' },
    params: { id: p.string.required(), search: p.string.optional(), skip_users: p.strings.optional() },
    handler: async ({ params, project, paginate }) => {
      const access = await project();
      const skipUsers = (params.skip_users ?? []).map((id) => Number(id));
      if (skipUsers.some((id) => !Number.isSafeInteger(id))) throw new ParamError('skip_users is invalid');
      const rows = await paginate(projectUsersQuery(deps, access.project, { search: params.search, skipUsers }));
      return rows.map((row) => userBasic(base, row));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/groups', summary: "The project's group and the groups above it", tags: ['projects'], paginated: true,
    ability: { project: 'read_project' }, auth: 'optional',
    params: {
      id: p.string.required(), search: p.string.optional(), skip_groups: p.integers.optional(),
      with_shared: p.boolean.optional(), shared_visible_only: p.boolean.optional(), shared_min_access_level: p.integer.optional(),
    },
    handler: async ({ params, project, paginate, principal }) => {
      const access = await project();
      if (params.shared_min_access_level !== undefined && !SHARED_ACCESS_LEVELS.includes(params.shared_min_access_level)) throw new ParamError('shared_min_access_level does not have a valid value');
      const shared = params.with_shared
        ? { minAccessLevel: params.shared_min_access_level, visible: params.shared_visible_only ? visibleGroupsQuery(deps, principal?.user ?? null, {}).clearSelect().clearOrderBy().select('id') : undefined }
        : undefined;
      const rows = await paginate(projectGroupsQuery(deps, access.project, { search: params.search, skipGroups: params.skip_groups ?? [], shared }));
      // GitLab's PublicGroupDetails.
      return rows.map((row) => {
        const { id, web_url, name, avatar_url, full_name, full_path } = groupEntity(base, row);
        return { id, web_url, name, avatar_url, full_name, full_path };
      });
    },
  });
}
