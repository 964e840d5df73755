// Project and group badges (doc/api/project_badges.md, group_badges.md; lib/api/badges.rb): read by
// whoever reads the project or group, added, previewed (`render`), changed and removed by those who
// administer it (a project's Maintainers, a group's Owners). A project's list holds its groups'
// badges too (`kind: group`); URLs are rendered with the project's placeholders, a group's with
// those of its first project the caller sees (as GitLab does), or left as written without one.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute, type RouteContext } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import type { GroupAbility, ProjectAbility } from '../platform/auth/policies/abilities.js';
import { badgesQuery, findBadge, findOwnBadge, type BadgeSource } from './finder.js';
import { badgeEntity, basicBadgeEntity } from './entities.js';
import type { PlaceholderValues } from './placeholders.js';
import { placeholderValuesFor } from './source-values.js';
import { createBadge } from './create-badge.js';
import { updateBadge } from './update-badge.js';
import { deleteBadge } from './delete-badge.js';
import { validateBadge } from './validate-badge.js';

const TAGS = ['badges'];
const URL_RULE = { max: 2048 };

interface Kind {
  plural: 'projects' | 'groups';
  read: { project: ProjectAbility } | { group: GroupAbility };
  admin: { project: ProjectAbility } | { group: GroupAbility };
}

const KINDS: Kind[] = [
  { plural: 'projects', read: { project: 'read_project' }, admin: { project: 'admin_project' } },
  { plural: 'groups', read: { group: 'read_group' }, admin: { group: 'admin_group' } },
];

export function badgeRoutes(app: FastifyInstance, deps: Deps): void {
  for (const kind of KINDS) kindRoutes(app, deps, kind);
}

function kindRoutes(app: FastifyInstance, deps: Deps, kind: Kind): void {
  const base = `/${kind.plural}/:id/badges`;
  const noun = kind.plural === 'projects' ? 'project' : 'group';

  // The source named by the path and the values its badges are rendered with.
  const sourceOf = async (ctx: RouteContext<any>): Promise<{ source: BadgeSource; values: PlaceholderValues | null }> => {
    const source: BadgeSource = kind.plural === 'projects' ? { project: (await ctx.project()).project } : { group: (await ctx.group()).group };
    return { source, values: await placeholderValuesFor(deps, source, ctx.principal?.user ?? null) };
  };

  apiRoute(app, deps, {
    method: 'GET', url: base, summary: `A ${noun}'s badges${noun === 'project' ? ' and its groups\'' : ''}`, tags: TAGS, paginated: true,
    ability: kind.read, auth: 'optional',
    params: { id: p.string.required(), name: p.string.optional({ description: 'Only badges of this name (case-sensitive)' }) },
    handler: async (ctx) => {
      const { source, values } = await sourceOf(ctx);
      let query = await badgesQuery(deps, source);
      if (ctx.params.name !== undefined) query = query.where('name', '=', ctx.params.name);
      const rows = await ctx.paginate(query);
      return Promise.all(rows.map((row) => badgeEntity(row, values)));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: `${base}/render`, summary: 'Preview a badge: its URLs rendered with the placeholders', tags: TAGS,
    ability: kind.admin,
    params: { id: p.string.required(), link_url: p.string.required(URL_RULE), image_url: p.string.required(URL_RULE) },
    handler: async (ctx) => {
      const { values } = await sourceOf(ctx);
      const badge = { name: null, link_url: ctx.params.link_url, image_url: ctx.params.image_url };
      validateBadge(badge);
      return basicBadgeEntity(badge, values);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: `${base}/:badge_id`, summary: `One badge of the ${noun}`, tags: TAGS,
    ability: kind.read, auth: 'optional',
    params: { id: p.string.required(), badge_id: p.integer.required() },
    handler: async (ctx) => {
      const { source, values } = await sourceOf(ctx);
      return badgeEntity(await findBadge(deps, source, ctx.params.badge_id), values);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: base, summary: `Add a badge to the ${noun}`, tags: TAGS,
    ability: kind.admin,
    params: { id: p.string.required(), link_url: p.string.required(URL_RULE), image_url: p.string.required(URL_RULE), name: p.string.optional({ max: 255 }) },
    handler: async (ctx) => {
      const { source, values } = await sourceOf(ctx);
      const { params } = ctx;
      return badgeEntity(await createBadge(deps, source, { name: params.name ?? null, link_url: params.link_url, image_url: params.image_url }), values);
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: `${base}/:badge_id`, summary: `Change a badge of the ${noun}`, tags: TAGS,
    ability: kind.admin,
    params: { id: p.string.required(), badge_id: p.integer.required(), link_url: p.string.optional(URL_RULE), image_url: p.string.optional(URL_RULE), name: p.string.optional({ max: 255 }) },
    handler: async (ctx) => {
      const { source, values } = await sourceOf(ctx);
      const { params } = ctx;
      const badge = await findOwnBadge(deps, source, params.badge_id);
      return badgeEntity(await updateBadge(deps, badge, { name: params.name, link_url: params.link_url, image_url: params.image_url }), values);
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: `${base}/:badge_id`, summary: `Remove a badge from the ${noun}`, tags: TAGS,
    ability: kind.admin,
    params: { id: p.string.required(), badge_id: p.integer.required() },
    handler: async (ctx) => {
      const { source } = await sourceOf(ctx);
      await deleteBadge(deps, await findOwnBadge(deps, source, ctx.params.badge_id));
      return undefined;
    },
  });
}
