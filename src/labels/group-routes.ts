// Group labels (doc/api/group_labels.md; lib/api/group_labels.rb): seen by the group, its subgroups
// and every project under it; members read them, Reporters and above manage them. As for project
// labels, `PUT`/`DELETE /groups/:id/labels` with `name` in the body are the older forms clients send.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute, type RouteContext } from '../platform/http/route.js';
import { p, requireOneOf } from '../platform/http/params.js';
import { labelEntity } from './entities.js';
import { availableLabelsQuery, findLabel } from './finder.js';
import { createLabel } from './create-label.js';
import { updateLabel } from './update-label.js';
import { deleteLabel } from './delete-label.js';
import { groupAndDescendantIds, labelIssueCounts } from './labels-queries.js';
import { createParams, listParams, updateParams } from './label-params.js';
import { exactlyOneKey } from './routes.js';
import { subscribedLabelIds } from './subscriptions.js';
import type { LabelRow } from './entities.js';

const TAGS = ['labels'];
const UPDATE_FIELDS = ['new_name', 'color', 'description', 'archived'];
const scopeParams = {
  include_ancestor_groups: p.boolean.optional({ default: true }),
  include_descendant_groups: p.boolean.optional({ default: false }),
  only_group_labels: p.boolean.optional({ default: true }),
};
const putParams = { id: p.string.required(), name: p.string.optional(), label_id: p.integer.optional(), ...updateParams };

export function groupLabelsRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/groups/:id/labels', summary: "A group's labels (and its ancestors')", tags: TAGS, paginated: true,
    ability: { group: 'read_label' },
    params: { id: p.string.required(), ...listParams, ...scopeParams },
    handler: async ({ params, group, paginate, principal }) => {
      const access = await group();
      const scope = { includeAncestorGroups: params.include_ancestor_groups, includeDescendantGroups: params.include_descendant_groups, onlyGroupLabels: params.only_group_labels, search: params.search };
      const rows = await paginate(await availableLabelsQuery(deps, { group: access.group }, scope));
      const ids = rows.map((row) => Number(row.id));
      const counts = params.with_counts
        ? await labelIssueCounts(deps.db, ids, { groupIds: await groupAndDescendantIds(deps.db, Number(access.group.id)) }, principal?.user ?? null, deps.clock.now())
        : null;
      const subscribed = await subscribedLabelIds(deps.db, principal?.user?.id, ids, { projectId: null });
      return rows.map((row) => labelEntity(row, subscribed.has(Number(row.id)), counts?.get(Number(row.id))));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/groups/:id/labels/:name', summary: 'One group label by id or title', tags: TAGS,
    ability: { group: 'read_label' },
    params: { id: p.string.required(), name: p.string.required(), ...scopeParams },
    handler: async ({ params, group, principal }) => {
      const access = await group();
      const scope = { includeAncestorGroups: params.include_ancestor_groups, includeDescendantGroups: params.include_descendant_groups, onlyGroupLabels: params.only_group_labels };
      return presentGroupLabel(deps, principal?.user?.id, await findLabel(deps, { group: access.group }, params.name, scope));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/groups/:id/labels', summary: 'Create a group label', tags: TAGS,
    ability: { group: 'admin_label' },
    params: { id: p.string.required(), ...createParams },
    handler: async ({ params, group }) => {
      const access = await group();
      return labelEntity(await createLabel(deps, { group: access.group }, { title: params.name, color: params.color, description: params.description, archived: params.archived }), false);
    },
  });

  const update = async ({ params, input, group, principal }: RouteContext<typeof putParams>, key: string | number) => {
    requireOneOf(input, UPDATE_FIELDS);
    const access = await group();
    const label = await findLabel(deps, { group: access.group }, key, { includeAncestorGroups: false });
    return presentGroupLabel(deps, principal?.user?.id, await updateLabel(deps, label, { newName: params.new_name, color: params.color, description: params.description, archived: params.archived }));
  };

  apiRoute(app, deps, {
    method: 'PUT', url: '/groups/:id/labels/:name', summary: 'Change a group label (by id or title)', tags: TAGS,
    ability: { group: 'admin_label' },
    params: { ...putParams, name: p.string.required() },
    handler: (ctx) => update(ctx, ctx.params.name),
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/groups/:id/labels', summary: 'Change a group label named by `name` or `label_id` (deprecated form)', tags: TAGS,
    ability: { group: 'admin_label' },
    params: putParams,
    handler: (ctx) => update(ctx, exactlyOneKey(ctx.input, ctx.params.label_id, ctx.params.name)),
  });

  for (const url of ['/groups/:id/labels/:name', '/groups/:id/labels']) {
    apiRoute(app, deps, {
      method: 'DELETE', url, summary: url.endsWith(':name') ? 'Delete a group label (by id or title)' : 'Delete a group label named by `name` (deprecated form)', tags: TAGS,
      ability: { group: 'admin_label' },
      params: { id: p.string.required(), name: p.string.required() },
      handler: async ({ params, group }) => {
        const access = await group();
        await deleteLabel(deps, await findLabel(deps, { group: access.group }, params.name, { includeAncestorGroups: false }));
        return undefined;
      },
    });
  }
}

/** A group's label with the caller's subscription to the whole label. */
export async function presentGroupLabel(deps: Deps, userId: number | undefined, label: LabelRow) {
  return labelEntity(label, (await subscribedLabelIds(deps.db, userId, [Number(label.id)], { projectId: null })).size > 0);
}
