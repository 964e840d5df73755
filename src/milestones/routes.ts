// Project and group milestones (doc/api/milestones.md, group_milestones.md; lib/api/project_milestones.rb,
// group_milestones.rb, milestone_responses.rb): a signed-in caller who reads the project or group reads
// its milestones, Reporters and above create, change, close, reopen and delete them. A milestone is
// named by its global id; `state_event` is `close` or `activate`.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute, type RouteContext } from '../platform/http/route.js';
import { p, requireOneOf } from '../platform/http/params.js';
import { milestoneEntity, type MilestoneParentPath, type MilestoneRow } from './entities.js';
import { findMilestone, milestonesQuery, type MilestoneParent } from './finder.js';
import { parentPaths } from './parent-paths.js';
import { promoteMilestone } from './promote-milestone.js';
import { ForbiddenError } from '../platform/errors.js';
import { findGroup } from '../accounts/api.js';
import { createMilestone } from './create-milestone.js';
import { updateMilestone } from './update-milestone.js';
import { deleteMilestone } from './delete-milestone.js';
import { asMilestoneError, dateParam, listParams, optionalParams, timeParam } from './milestone-params.js';

const TAGS = ['milestones'];

type Kind = 'project' | 'group';

export function milestonesRoutes(app: FastifyInstance, deps: Deps): void {
  for (const kind of ['project', 'group'] as const) kindRoutes(app, deps, kind);
}

function kindRoutes(app: FastifyInstance, deps: Deps, kind: Kind): void {
  const base = `/${kind}s/:id/milestones`;
  const read = kind === 'project' ? { project: 'read_milestone' as const } : { group: 'read_milestone' as const };
  const admin = kind === 'project' ? { project: 'admin_milestone' as const } : { group: 'admin_milestone' as const };
  const parentOf = async (ctx: RouteContext<any>): Promise<{ parent: MilestoneParent; path: MilestoneParentPath }> => {
    if (kind === 'project') {
      const access = await ctx.project();
      return { parent: { project: access.project }, path: { kind, fullPath: access.project.full_path } };
    }
    const access = await ctx.group();
    return { parent: { group: access.group }, path: { kind, fullPath: access.group.full_path } };
  };
  const present = (row: MilestoneRow, path: MilestoneParentPath) => milestoneEntity(deps.config.baseUrl, row, path, deps.clock.now());

  apiRoute(app, deps, {
    method: 'GET', url: base, summary: `List a ${kind}'s milestones`, tags: TAGS, paginated: true, ability: read,
    params: { id: p.string.required(), ...listParams, ...(kind === 'group' ? { include_descendants: p.boolean.optional({ default: false }) } : {}) },
    handler: async (ctx) => {
      const { params } = ctx;
      const { parent, path } = await parentOf(ctx);
      const query = await milestonesQuery(deps, parent, {
        state: params.state as 'all',
        iids: params.iids,
        title: params.title,
        search: params.search,
        includeAncestors: params.include_parent_milestones || params.include_ancestors,
        includeDescendants: (params as { include_descendants?: boolean }).include_descendants,
        updatedBefore: timeParam('updated_before', params.updated_before),
        updatedAfter: timeParam('updated_after', params.updated_after),
      });
      const rows = await ctx.paginate(query);
      // Milestones of other parents (ancestors, descendants) link to their own pages.
      const paths = await parentPaths(deps, rows, parent, path);
      return rows.map((row) => present(row, paths.get(Number(row.id)) ?? path));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: `${base}/:milestone_id`, summary: `One ${kind} milestone`, tags: TAGS, ability: read,
    params: { id: p.string.required(), milestone_id: p.integer.required() },
    handler: async (ctx) => {
      const { parent, path } = await parentOf(ctx);
      return present(await findMilestone(deps.db, parent, ctx.params.milestone_id), path);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: base, summary: `Create a ${kind} milestone`, tags: TAGS, ability: admin,
    params: { id: p.string.required(), title: p.string.required(), ...optionalParams },
    handler: async (ctx) => {
      const { params } = ctx;
      const { parent, path } = await parentOf(ctx);
      const created = await asMilestoneError('create', () => createMilestone(deps, ctx.actor.user.id, parent, {
        title: params.title, description: params.description, startDate: dateParam('start_date', params.start_date), dueDate: dateParam('due_date', params.due_date),
      }));
      return present(created, path);
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: `${base}/:milestone_id`, summary: `Change, close or reopen a ${kind} milestone`, tags: TAGS, ability: admin,
    params: { id: p.string.required(), milestone_id: p.integer.required(), title: p.string.optional(), state_event: p.string.optional({ values: ['close', 'activate'] }), ...optionalParams },
    handler: async (ctx) => {
      const { params } = ctx;
      requireOneOf(ctx.input, ['title', 'description', 'start_date', 'due_date', 'state_event']);
      const startDate = dateParam('start_date', params.start_date);
      const dueDate = dateParam('due_date', params.due_date);
      const { parent, path } = await parentOf(ctx);
      const milestone = await findMilestone(deps.db, parent, params.milestone_id);
      const updated = await asMilestoneError('update', () => updateMilestone(deps, ctx.actor.user.id, parent, milestone, {
        title: params.title, description: params.description, startDate, dueDate, stateEvent: params.state_event as 'close',
      }));
      return present(updated, path);
    },
  });

  if (kind === 'project') {
    // Needs admin_milestone on the project's group too (404 when the caller cannot read it, 403 without
    // it). GitLab answers the status alone: 200.
    apiRoute(app, deps, {
      method: 'POST', url: `${base}/:milestone_id/promote`, summary: "Promote a project milestone to a milestone of the project's group", tags: TAGS, ability: admin, status: 200,
      params: { id: p.string.required(), milestone_id: p.integer.required() },
      handler: async (ctx) => {
        const access = await ctx.project();
        // A personal project has no group to promote to: GitLab's authorize! on a nil group.
        if (access.namespace.kind !== 'group') throw new ForbiddenError();
        const { group } = await findGroup(deps, ctx.principal, Number(access.namespace.id), 'admin_milestone');
        await promoteMilestone(deps, group, await findMilestone(deps.db, { project: access.project }, ctx.params.milestone_id));
        return 200;
      },
    });
  }

  apiRoute(app, deps, {
    method: 'DELETE', url: `${base}/:milestone_id`, summary: `Delete a ${kind} milestone`, tags: TAGS, ability: admin,
    params: { id: p.string.required(), milestone_id: p.integer.required() },
    handler: async (ctx) => {
      const { parent } = await parentOf(ctx);
      await deleteMilestone(deps, ctx.actor.user.id, await findMilestone(deps.db, parent, ctx.params.milestone_id));
      return undefined;
    },
  });
}
