import type { FastifyInstance } from 'fastify';
import type { SelectQueryBuilder } from 'kysely';
import { JsonText } from '../platform/http/json-text.js';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p, type Parsed } from '../platform/http/params.js';
import type { Visibility } from '../platform/db/tables/accounts.js';
import { createProject } from './create-project.js';
import { PROJECT_CREATE_SETTING_PARAMS, projectSettingsInput } from './project-setting-params.js';
import { deleteProject } from './delete-project.js';
import { accountHooks } from './hooks.js';
import { findProject, findUser } from './lookup.js';
import { toAuthUser } from './user-entities.js';
import type { AuthUser, Principal } from '../platform/auth/principal.js';
import { memberProjectKeysPage, namespaceOf, namespacesOf, projectsByIds, visibleProjectKeysQuery } from './finders.js';
import { keptProjectJson, projectEntity, projectJson, projectJsonKey } from './entities.js';
import { forkedFromJson } from './fork-network.js';
import { sharedWithGroups } from './group-links.js';
import { customAttributeFilter, customAttributesOf, ownersWith, showsCustomAttributes } from './custom-attribute-filters.js';
import { PROJECT_LIST_PARAMS, projectFilters } from './project-list-params.js';
import { canOnProject } from '../platform/auth/policies/index.js';
import { withMember } from '../platform/http/entity-cache.js';

const VISIBILITIES = ['private', 'internal', 'public'] as const;

export function projectsRoutes(app: FastifyInstance, deps: Deps): void {

  apiRoute(app, deps, {
    method: 'GET', url: '/projects', summary: 'List projects you can see (public ones without a token)', tags: ['projects'], paginated: true,
    ability: { instance: 'read_instance' }, auth: 'optional',
    params: PROJECT_LIST_PARAMS,
    // The page's keys and count in one statement; the rows of the entities not kept only on a miss.
    // The caller's projects by membership read the set of them once (finders.ts, memberProjectKeysPage);
    // filtered by custom attributes, the page is the usual statement.
    handler: async ({ params, principal, paginateWithCount, paginateInOnePass, input }) => {
      const user = principal?.user ?? null;
      const filters = projectFilters(params);
      const memberPage = customAttributeFilter(input, user).length === 0 ? memberProjectKeysPage(deps, user, filters) : null;
      const paginate = memberPage ? <Row>(query: SelectQueryBuilder<any, any, Row>) => paginateInOnePass(query, memberPage) : paginateWithCount;
      return projectListAnswer(deps, user, input, visibleProjectKeysQuery(deps, user, filters), paginate);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/users/:user_id/projects', summary: "The projects in a user's personal namespace that you can see (id or username)", tags: ['projects', 'users'], paginated: true,
    ability: { instance: 'read_instance' }, auth: 'optional',
    params: { ...PROJECT_LIST_PARAMS, user_id: p.string.required() },
    handler: async ({ params, principal, paginateWithCount, input }) => {
      const user = principal?.user ?? null;
      const owner = await findUser(deps, params.user_id);
      const personal = deps.db.selectFrom('namespaces').select('id').where('kind', '=', 'user').where('owner_id', '=', Number(owner.id));
      // GitLab's ProjectsFinder hands a user's listing to PersonalProjectsFinder, which `owned` and
      // `membership` never reach: the user's projects the caller can see, whoever owns them.
      const filters = { ...projectFilters(params), owned: undefined, membership: undefined };
      const query = visibleProjectKeysQuery(deps, user, filters).where('namespace_id', 'in', personal);
      return projectListAnswer(deps, user, input, query, paginateWithCount);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id', summary: 'One project by id or URL-encoded path', tags: ['projects'],
    ability: { project: 'read_project' }, auth: 'optional',
    params: { id: p.string.required(), statistics: p.boolean.optional() },
    // Anonymous callers get no `permissions` (GitLab presents them only to a user); `statistics` only
    // those who may read them (Reporters and up).
    handler: async ({ principal, project, params, input }) => {
      const access = await project();
      const forkedFrom = (await forkedFromJson(deps, deps.config, principal?.user ?? null, [access.project])).get(Number(access.project.id));
      let json = projectJson(deps.caches, deps.config, access.project, access.namespace, principal ? access : undefined, forkedFrom);
      // Not in the kept entity: the links and the invited groups' names change without the project's
      // version. Read only for a project that may have links (has_group_links, kept by share-project.ts
      // in the links' transaction): almost none has, and then the look-up is the one statement. Only a
      // known 0 skips it: a row without the column still reads the links.
      const shared = access.project.has_group_links !== 0 ? await sharedWithGroups(deps, principal?.user ?? null, { projectId: Number(access.project.id) }) : [];
      json = withMember(json, 'shared_with_groups', JSON.stringify(shared));
      if (showsCustomAttributes(input, principal?.user ?? null)) {
        json = withMember(json, 'custom_attributes', JSON.stringify((await customAttributesOf(deps.db, 'project_id', [Number(access.project.id)])).get(Number(access.project.id))));
      }
      const statistics = accountHooks(deps).projectStatistics;
      if (!params.statistics || !statistics || !canOnProject(access, 'read_statistics')) return JsonText.of(json);
      return JsonText.of(withMember(json, 'statistics', JSON.stringify(await statistics(access.project))));
    },
  });

  const createParams = {
    name: p.string.optional(),
    path: p.string.optional(),
    namespace_id: p.integer.optional(),
    visibility: p.string.optional({ values: VISIBILITIES }),
    default_branch: p.string.optional(),
    initialize_with_readme: p.boolean.optional(),
    ...PROJECT_CREATE_SETTING_PARAMS,
  };
  type CreateParams = Parsed<typeof createParams>;
  const create = async (actor: Principal, params: CreateParams) => {
    const project = await createProject(deps, actor, {
      ...projectSettingsInput(params),
      name: params.name,
      path: params.path,
      namespaceId: params.namespace_id,
      visibility: params.visibility as Visibility | undefined,
      description: params.description,
      defaultBranch: params.default_branch,
    });
    const initialize = accountHooks(deps).initializeRepository;
    if (params.initialize_with_readme && initialize) await initialize(await findProject(deps, actor, String(project.id)), { readme: true, files: [] });
    return projectEntity(deps.config, project, await namespaceOf(deps, project));
  };

  apiRoute(app, deps, {
    method: 'POST', url: '/projects', summary: 'Create a project', tags: ['projects'],
    // The namespace's create_projects is asked by createProject: it is named in the body.
    ability: { instance: 'create_project' },
    params: createParams,
    handler: async ({ params, actor }) => create(actor, params),
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/user/:user_id', summary: 'Create a project for a user (administrators)', tags: ['projects'],
    ability: { instance: 'admin_all_resources' },
    params: { user_id: p.integer.required(), ...createParams },
    // GitLab's Projects::CreateService run as that user: the project is theirs, in their namespace by default.
    handler: async ({ params, actor }) => create({ ...actor, user: toAuthUser(await findUser(deps, params.user_id)) }, params),
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id', summary: 'Delete a project (owners)', tags: ['projects'], status: 202,
    ability: { project: 'remove_project' },
    params: { id: p.string.required() },
    handler: async ({ project }) => {
      const access = await project();
      await deleteProject(deps, access.project, access.user?.id ?? null);
      return { message: '202 Accepted' };
    },
  });
}

/**
 * A page of project entities for `query` (visibleProjectKeysQuery, maybe narrowed): the page's keys and
 * count in one statement, the rows of the entities not kept only on a miss. GET /projects and GET
 * /users/:id/projects answer with it.
 */
async function projectListAnswer(deps: Deps, user: AuthUser | null, input: Record<string, unknown>, query: ReturnType<typeof visibleProjectKeysQuery>, paginateWithCount: <Row>(query: SelectQueryBuilder<any, any, Row>) => Promise<Row[]>): Promise<JsonText> {
  for (const owners of ownersWith(deps.db, 'project_id', customAttributeFilter(input, user))) query = query.where('id', 'in', owners);
  const keys = await paginateWithCount(query);
  const forkedFrom = await forkedFromJson(deps, deps.config, user, keys);
  const jsons = keys.map((key) => keptProjectJson(deps.caches, key, forkedFrom.get(Number(key.id))));
  // What identifies each entity's JSON: the key it is kept under and the upstream shown with it.
  const shown = keys.map((key) => `${projectJsonKey(key)}|${forkedFrom.get(Number(key.id)) ?? ''}`);
  let digestJson = showsCustomAttributes(input, user);
  const missing = await projectsByIds(deps, keys.filter((_, index) => jsons[index] === undefined).map((key) => Number(key.id)));
  if (missing.length) {
    const namespaces = await namespacesOf(deps, missing);
    const read = new Map(missing.map((row) => [Number(row.id), { row, namespace: namespaces.get(Number(row.namespace_id))! }]));
    keys.forEach((key, index) => {
      const found = jsons[index] === undefined ? read.get(Number(key.id)) : undefined;
      if (!found) return;
      const upstream = forkedFrom.get(Number(key.id));
      jsons[index] = projectJson(deps.caches, deps.config, found.row, found.namespace, undefined, upstream);
      // Read now, maybe at a newer version than the page's key; a row without one is not kept.
      digestJson ||= found.row.version == null || found.namespace.version == null;
      shown[index] = `${projectJsonKey({ id: found.row.id, version: found.row.version, namespace_id: found.namespace.id, namespace_version: found.namespace.version })}|${upstream ?? ''}`;
    });
    // A project deleted between the two statements is left out, as a listing read after it would.
  }
  // The page's ETag digests what identifies its entities, not its JSON (http/etag.ts); with custom
  // attributes, which no version names, the JSON is digested.
  const identity = digestJson ? undefined : `projects\n${shown.filter((_, index) => jsons[index] !== undefined).join('\n')}`;
  if (showsCustomAttributes(input, user)) {
    const attributes = await customAttributesOf(deps.db, 'project_id', keys.map((key) => Number(key.id)));
    keys.forEach((key, index) => (jsons[index] &&= withMember(jsons[index], 'custom_attributes', JSON.stringify(attributes.get(Number(key.id))))));
  }
  return JsonText.of(`[${jsons.filter((json) => json !== undefined).join(',')}]`, identity);
}
