// Project labels (doc/api/labels.md; lib/api/labels.rb): members read them (the labels API always
// needs a signed-in caller), Reporters and above create, change and delete the project's own labels.
// A label is named by id or by title, URL-encoded in the path. The older forms `PUT` and `DELETE
// /projects/:id/labels` with `name` or `label_id` in the body are what python-gitlab's `save()` sends.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute, type RouteContext } from '../platform/http/route.js';
import { p, rejectTogether, requireOneOf } from '../platform/http/params.js';
import { ParamError, StatusError } from '../platform/errors.js';
import { findGroup } from '../accounts/api.js';
import { promoteLabel } from './promote-label.js';
import { labelEntity, projectLabelEntity, type LabelRow } from './entities.js';
import { availableLabelsQuery, findLabel } from './finder.js';
import { createLabel } from './create-label.js';
import { updateLabel } from './update-label.js';
import { deleteLabel } from './delete-label.js';
import { labelIssueCounts } from './labels-queries.js';
import { createParams, listParams, priorityOf, updateParams } from './label-params.js';
import { subscribedLabelIds } from './subscriptions.js';

const TAGS = ['labels'];
const UPDATE_FIELDS = ['new_name', 'color', 'description', 'priority', 'archived'];
const projectUpdateParams = { ...updateParams, priority: p.integer.optional() };

export function projectLabelsRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/labels', summary: "A project's labels and those of its ancestor groups", tags: TAGS, paginated: true,
    ability: { project: 'read_label' },
    params: { id: p.string.required(), ...listParams },
    handler: async ({ params, project, paginate, principal }) => {
      const access = await project();
      const rows = await paginate(await availableLabelsQuery(deps, { project: access.project }, { includeAncestorGroups: params.include_ancestor_groups, search: params.search }));
      const ids = rows.map((row) => Number(row.id));
      const counts = params.with_counts ? await labelIssueCounts(deps.db, ids, { projectId: Number(access.project.id) }, principal?.user ?? null, deps.clock.now()) : null;
      const subscribed = await subscribedLabelIds(deps.db, principal?.user?.id, ids, { projectId: Number(access.project.id) });
      return rows.map((row) => projectLabelEntity(row, subscribed.has(Number(row.id)), counts?.get(Number(row.id))));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/labels/:name', summary: 'One label by id or title', tags: TAGS,
    ability: { project: 'read_label' },
    params: { id: p.string.required(), name: p.string.required(), include_ancestor_groups: p.boolean.optional({ default: true }) },
    handler: async ({ params, project, principal }) => {
      const access = await project();
      return presentProjectLabel(deps, access.project, principal?.user?.id, await findLabel(deps, { project: access.project }, params.name, { includeAncestorGroups: params.include_ancestor_groups }));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/labels', summary: 'Create a project label', tags: TAGS,
    ability: { project: 'admin_label' },
    params: { id: p.string.required(), ...createParams, priority: p.integer.optional() },
    handler: async ({ params, input, project }) => {
      const access = await project();
      const label = await createLabel(deps, { project: access.project }, {
        title: params.name, color: params.color, description: params.description, priority: priorityOf(input, params.priority), archived: params.archived,
      });
      return projectLabelEntity(label, false);
    },
  });

  const update = async ({ params, input, project, principal }: RouteContext<typeof projectUpdateParams & { id: any; name: any; label_id: any }>, key: string | number) => {
    requireOneOf(input, UPDATE_FIELDS);
    const access = await project();
    const label = await findLabel(deps, { project: access.project }, key, { includeAncestorGroups: false });
    const updated = await updateLabel(deps, label, {
      newName: params.new_name, color: params.color, description: params.description, priority: priorityOf(input, params.priority), archived: params.archived,
    });
    return presentProjectLabel(deps, access.project, principal?.user?.id, updated);
  };

  apiRoute(app, deps, {
    method: 'PUT', url: '/projects/:id/labels/:name', summary: 'Change a project label (by id or title)', tags: TAGS,
    ability: { project: 'admin_label' },
    params: { id: p.string.required(), name: p.string.required(), label_id: p.integer.optional(), ...projectUpdateParams },
    handler: (ctx) => update(ctx, ctx.params.name),
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/projects/:id/labels', summary: 'Change a project label named by `name` or `label_id` (deprecated form)', tags: TAGS,
    ability: { project: 'admin_label' },
    params: { id: p.string.required(), name: p.string.optional(), label_id: p.integer.optional(), ...projectUpdateParams },
    handler: (ctx) => update(ctx, exactlyOneKey(ctx.input, ctx.params.label_id, ctx.params.name)),
  });

  // Promotion needs admin_label on the project's group too (404 when the caller cannot read it, 403 without it).
  for (const url of ['/projects/:id/labels/:name/promote', '/projects/:id/labels/promote']) {
    apiRoute(app, deps, {
      method: 'PUT', url, summary: 'Promote a project label (by id or title) to a label of the project\'s group', tags: TAGS,
      ability: { project: 'admin_label' },
      params: { id: p.string.required(), name: p.string.required() },
      handler: async ({ params, project, principal }) => {
        const access = await project();
        if (access.namespace.kind !== 'group') throw new StatusError(400, 'Failed to promote project label to group label');
        const { group } = await findGroup(deps, principal, Number(access.namespace.id), 'admin_label');
        const label = await findLabel(deps, { project: access.project }, params.name, { includeAncestorGroups: false });
        const promoted = await promoteLabel(deps, group, label);
        return labelEntity(promoted, (await subscribedLabelIds(deps.db, principal?.user?.id, [Number(promoted.id)], { projectId: null })).size > 0);
      },
    });
  }

  apiRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/labels/:name', summary: 'Delete a project label (by id or title)', tags: TAGS,
    ability: { project: 'admin_label' },
    params: { id: p.string.required(), name: p.string.required() },
    handler: async ({ params, project }) => {
      const access = await project();
      await deleteLabel(deps, await findLabel(deps, { project: access.project }, params.name, { includeAncestorGroups: false }));
      return undefined;
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/labels', summary: 'Delete a project label named by `name` or `label_id` (deprecated form)', tags: TAGS,
    ability: { project: 'admin_label' },
    params: { id: p.string.required(), name: p.string.optional(), label_id: p.integer.optional() },
    handler: async ({ params, input, project }) => {
      const key = exactlyOneKey(input, params.label_id, params.name);
      const access = await project();
      await deleteLabel(deps, await findLabel(deps, { project: access.project }, key, { includeAncestorGroups: false }));
      return undefined;
    },
  });
}

/** A project's label (its own or an inherited group label) with the caller's subscription in that project. */
export async function presentProjectLabel(deps: Deps, project: { id: number }, userId: number | undefined, label: LabelRow) {
  const subscribed = await subscribedLabelIds(deps.db, userId, [Number(label.id)], { projectId: Number(project.id) });
  return projectLabelEntity(label, subscribed.size > 0);
}

/** Grape's exactly_one_of :label_id, :name. */
export function exactlyOneKey(input: Record<string, unknown>, labelId: number | undefined, name: string | undefined): string | number {
  rejectTogether(input, ['label_id', 'name']);
  const key = labelId ?? name;
  if (key === undefined) throw new ParamError('label_id, name are missing, exactly one parameter must be provided');
  return key;
}
