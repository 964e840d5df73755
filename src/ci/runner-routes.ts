// Runners for users (GitLab's API::Ci::Runners, API::Ci::Runner user endpoints): create one with a
// `glrt-` token (`POST /user/runners`), list, read, change and delete runners, the runners a project can use,
// and new registration tokens for the legacy `POST /runners` registration.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { ForbiddenError, NotFoundError } from '../platform/errors.js';
import { ApiError } from '../platform/http/api-error.js';
import { findGroup, findProject } from '../accounts/api.js';
import { createRunner, parseTagList, resetRegistrationToken, runnerColumns, validateRunner, type RunnerAttributes } from './runners/register-runner.js';
import { availableRunners } from './runners/available-runners.js';
import { runnerDetailsEntity, runnerEntity, runnerStatus, type CiRunnerRow } from './entities.js';

const TAGS = ['runners'];
const RUNNER_TYPES = ['instance_type', 'group_type', 'project_type'] as const;

const attributeParams = {
  description: p.string.optional(),
  maintenance_note: p.string.optional(),
  paused: p.boolean.optional(),
  active: p.boolean.optional(),
  locked: p.boolean.optional(),
  run_untagged: p.boolean.optional(),
  tag_list: p.json.optional({ description: 'An array, or a comma-separated string' }),
  access_level: p.string.optional({ values: ['not_protected', 'ref_protected'] }),
  maximum_timeout: p.integer.optional(),
};

function attributesFrom(params: { [K in keyof typeof attributeParams]?: unknown }): RunnerAttributes {
  if (params.paused !== undefined && params.active !== undefined) throw new ApiError(400, { error: 'active, paused are mutually exclusive' });
  const paused = params.paused !== undefined ? Boolean(params.paused) : params.active !== undefined ? !params.active : undefined;
  return {
    ...(params.description !== undefined ? { description: String(params.description) } : {}),
    ...(params.maintenance_note !== undefined ? { maintenanceNote: String(params.maintenance_note) } : {}),
    ...(paused !== undefined ? { paused } : {}),
    ...(params.locked !== undefined ? { locked: Boolean(params.locked) } : {}),
    ...(params.run_untagged !== undefined ? { runUntagged: Boolean(params.run_untagged) } : {}),
    ...(parseTagList(params.tag_list) !== undefined ? { tagList: parseTagList(params.tag_list) } : {}),
    ...(params.access_level !== undefined ? { accessLevel: String(params.access_level) } : {}),
    ...(params.maximum_timeout !== undefined ? { maximumTimeout: Number(params.maximum_timeout) } : {}),
  };
}

export function runnerRoutes(app: FastifyInstance, deps: Deps): void {
  /** The runner, if the caller may manage it: administrators any, others the ones they created or of projects they maintain. */
  async function manageableRunner(actor: Principal, id: number): Promise<CiRunnerRow> {
    const runner = await deps.db.selectFrom('ci_runners').selectAll().where('id', '=', id).executeTakeFirst();
    if (!runner) throw new NotFoundError('Runner');
    if (actor.user.admin || Number(runner.creator_id) === actor.user.id) return runner;
    const projects = await deps.db.selectFrom('ci_runner_projects').select('project_id').where('runner_id', '=', runner.id).execute();
    for (const { project_id: projectId } of projects) {
      try {
        await findProject(deps, actor, Number(projectId), 'admin_project');
        return runner;
      } catch {
        // Not this one: try the runner's other projects.
      }
    }
    if (runner.runner_type === 'group_type' && runner.group_id !== null) {
      try {
        await findGroup(deps, actor, Number(runner.group_id), 'admin_group');
        return runner;
      } catch {
        // Falls through to the refusal.
      }
    }
    throw new ForbiddenError();
  }

  async function details(runner: CiRunnerRow) {
    const projects = await deps.db
      .selectFrom('ci_runner_projects as rp')
      .innerJoin('projects as p', 'p.id', 'rp.project_id')
      .select(['p.id', 'p.name', 'p.path', 'p.full_path'])
      .where('rp.runner_id', '=', runner.id)
      .orderBy('p.id')
      .execute();
    return runnerDetailsEntity(
      runner,
      deps.clock.now(),
      projects.map((project) => ({ id: Number(project.id), name: project.name, path: project.path, full_path: project.full_path, nameWithNamespace: project.full_path.split('/').join(' / ') })),
      [],
    );
  }

  const listFilters = {
    type: p.string.optional({ values: RUNNER_TYPES }),
    status: p.string.optional({ values: ['online', 'offline', 'stale', 'never_contacted', 'active', 'paused'] }),
    paused: p.boolean.optional(),
    tag_list: p.json.optional(),
    scope: p.string.optional(),
  };
  type Filters = { type?: string; status?: string; paused?: boolean; tag_list?: unknown };
  const filtered = (runners: CiRunnerRow[], filters: Filters) => {
    const tags = parseTagList(filters.tag_list) ?? [];
    const now = deps.clock.now();
    return runners.filter((runner) => {
      if (filters.type && runner.runner_type !== filters.type) return false;
      if (filters.paused !== undefined && (Number(runner.active) !== 1) !== filters.paused) return false;
      if (filters.status === 'active' && Number(runner.active) !== 1) return false;
      if (filters.status === 'paused' && Number(runner.active) === 1) return false;
      if (filters.status && !['active', 'paused'].includes(filters.status) && runnerStatus(runner, now) !== filters.status) return false;
      const own = JSON.parse(runner.tag_list) as string[];
      return tags.every((tag) => own.includes(tag));
    });
  };

  apiRoute(app, deps, {
    method: 'POST', url: '/user/runners', summary: 'Create a runner (its glrt- authentication token is shown once)', tags: TAGS, status: 201,
    ability: { instance: 'log_in' },
    params: { runner_type: p.string.required({ values: RUNNER_TYPES }), group_id: p.integer.optional(), project_id: p.integer.optional(), ...attributeParams },
    handler: async ({ params, actor }) => {
      let scope: { runnerType: (typeof RUNNER_TYPES)[number]; groupId?: number; projectId?: number };
      if (params.runner_type === 'instance_type') {
        if (!actor.user.admin) throw new ForbiddenError();
        scope = { runnerType: 'instance_type' };
      } else if (params.runner_type === 'group_type') {
        if (params.group_id === undefined) throw new ApiError(400, { message: '400 Bad request - group_id is missing' });
        const group = await findGroup(deps, actor, params.group_id, 'admin_group');
        scope = { runnerType: 'group_type', groupId: Number(group.group.id) };
      } else {
        if (params.project_id === undefined) throw new ApiError(400, { message: '400 Bad request - project_id is missing' });
        const project = await findProject(deps, actor, params.project_id, 'admin_project');
        scope = { runnerType: 'project_type', projectId: Number(project.project.id) };
      }
      const { runner, token } = await createRunner(deps, scope, attributesFrom(params), { creatorId: actor.user.id, registration: 'authenticated_user' });
      return { id: Number(runner.id), token, token_expires_at: null };
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/runners', summary: "The caller's runners", tags: TAGS, paginated: false,
    ability: { instance: 'log_in' }, params: listFilters,
    handler: async ({ params, actor }) => {
      let query = deps.db.selectFrom('ci_runners').selectAll().orderBy('id');
      if (!actor.user.admin) query = query.where('creator_id', '=', actor.user.id);
      return filtered(await query.execute(), params).map((runner) => runnerEntity(runner, deps.clock.now()));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/runners/all', summary: 'Every runner (administrators)', tags: TAGS,
    ability: { instance: 'admin_all_resources' }, params: listFilters,
    handler: async ({ params }) => filtered(await deps.db.selectFrom('ci_runners').selectAll().orderBy('id').execute(), params).map((runner) => runnerEntity(runner, deps.clock.now())),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/runners/:runner_id', summary: 'A runner', tags: TAGS,
    ability: { instance: 'log_in' }, params: { runner_id: p.integer.required() },
    handler: async ({ params, actor }) => details(await manageableRunner(actor, params.runner_id)),
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/runners/:runner_id', summary: "Change a runner's settings", tags: TAGS,
    ability: { instance: 'log_in' }, params: { runner_id: p.integer.required(), ...attributeParams },
    handler: async ({ params, actor }) => {
      const runner = await manageableRunner(actor, params.runner_id);
      const attributes = attributesFrom(params);
      validateRunner(attributes, runner);
      const columns = runnerColumns(attributes);
      const updated = Object.keys(columns).length
        ? await deps.db.updateTable('ci_runners').set({ ...columns, updated_at: deps.clock.now() }).where('id', '=', runner.id).returningAll().executeTakeFirstOrThrow()
        : runner;
      return details(updated);
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/runners/:runner_id', summary: 'Delete a runner', tags: TAGS,
    ability: { instance: 'log_in' }, params: { runner_id: p.integer.required() },
    handler: async ({ params, actor }) => {
      const runner = await manageableRunner(actor, params.runner_id);
      await deps.db.deleteFrom('ci_runners').where('id', '=', runner.id).execute();
      return undefined;
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/runners', summary: 'The runners a project can use: its own, its groups\' and the instance\'s', tags: TAGS,
    ability: { project: 'read_project_runners' }, params: { id: p.string.required(), ...listFilters },
    handler: async ({ params, project }) => {
      const access = await project();
      return filtered(await availableRunners(deps, access.project, access.namespace), params).map((runner) => runnerEntity(runner, deps.clock.now()));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/runners/reset_registration_token', summary: "A new instance registration token (GitLab's legacy registration)", tags: TAGS, status: 201,
    ability: { instance: 'admin_all_resources' },
    handler: async () => ({ token: await resetRegistrationToken(deps, 'instance', null), token_expires_at: null }),
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/runners/reset_registration_token', summary: "A new registration token for the project's runners", tags: TAGS, status: 201,
    ability: { project: 'admin_project' }, params: { id: p.string.required() },
    handler: async ({ project }) => ({ token: await resetRegistrationToken(deps, 'project', Number((await project()).project.id)), token_expires_at: null }),
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/groups/:id/runners/reset_registration_token', summary: "A new registration token for the group's runners", tags: TAGS, status: 201,
    ability: { group: 'admin_group' }, params: { id: p.string.required() },
    handler: async ({ group }) => ({ token: await resetRegistrationToken(deps, 'group', Number((await group()).group.id)), token_expires_at: null }),
  });
}
