import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { createGroup } from './create-group.js';
import { visibleGroupsQuery } from './finders.js';
import { groupEntity } from './entities.js';
import { groupDetailEntity } from './group-detail.js';
import { customAttributeFilter, customAttributesOf, ownersWith, showsCustomAttributes } from './custom-attribute-filters.js';
import { settingParams } from './stored-settings.js';
import { GROUP_SETTING_ALIASES, GROUP_STORED_SETTINGS } from './settings-tables.js';

const VISIBILITIES = ['private', 'internal', 'public'] as const;

export function groupsRoutes(app: FastifyInstance, deps: Deps): void {
  const base = deps.config.baseUrl;

  apiRoute(app, deps, {
    method: 'GET', url: '/groups', summary: 'List groups you can see (public ones without a token)', tags: ['groups'], paginated: true,
    ability: { instance: 'read_instance' }, auth: 'optional',
    params: { search: p.string.optional(), top_level_only: p.boolean.optional(), owned: p.boolean.optional(), all_available: p.boolean.optional(), skip_groups: p.integers.optional() },
    handler: async ({ params, principal, paginate, input }) => {
      const viewer = principal?.user ?? null;
      let query = visibleGroupsQuery(deps, viewer, { search: params.search, topLevelOnly: params.top_level_only, owned: params.owned });
      if (params.skip_groups?.length) query = query.where('id', 'not in', params.skip_groups);
      for (const owners of ownersWith(deps.db, 'group_id', customAttributeFilter(input, viewer))) query = query.where('id', 'in', owners);
      const rows = await paginate(query);
      const attributes = showsCustomAttributes(input, viewer) ? await customAttributesOf(deps.db, 'group_id', rows.map((row) => Number(row.id))) : null;
      return rows.map((row) => (attributes ? { ...groupEntity(base, row), custom_attributes: attributes.get(Number(row.id)) } : groupEntity(base, row)));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/groups/:id', summary: 'One group by id or URL-encoded path', tags: ['groups'],
    ability: { group: 'read_group' }, auth: 'optional',
    params: { id: p.string.required() },
    handler: async ({ group, input, principal }) => {
      const { group: row } = await group();
      const detail = await groupDetailEntity(deps, principal?.user ?? null, row);
      if (!showsCustomAttributes(input, principal?.user ?? null)) return detail;
      return { ...detail, custom_attributes: (await customAttributesOf(deps.db, 'group_id', [Number(row.id)])).get(Number(row.id)) };
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/groups', summary: 'Create a group or subgroup', tags: ['groups'],
    // A subgroup's create_subgroup on its parent is asked by createGroup: the parent is in the body.
    ability: { instance: 'create_group' },
    params: {
      name: p.string.required(), path: p.string.required(), parent_id: p.integer.optional(), visibility: p.string.optional({ values: VISIBILITIES }), description: p.string.optional(),
      ...settingParams(GROUP_STORED_SETTINGS, GROUP_SETTING_ALIASES),
    },
    handler: async ({ params, actor }) =>
      groupEntity(base, await createGroup(deps, actor, {
        name: params.name, path: params.path, parentId: params.parent_id, visibility: params.visibility as (typeof VISIBILITIES)[number] | undefined, description: params.description, stored: params,
      })),
  });
}
