// Release asset links (doc/api/releases/links.md; lib/api/release/links.rb): read with the release,
// made, changed and deleted by those who may change the release (Developers).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute, type RouteContext } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { RecordNotFoundError, ValidationError } from '../platform/errors.js';
import type { ReleaseLinkType } from '../platform/db/tables/releases.js';
import { findRelease } from './finder.js';
import { linkEntity } from './entities.js';
import { insertLink, linkProblems, LINK_TYPES, normalFilepath } from './release-links.js';

const TAGS = ['releases'];
const BASE = '/projects/:id/releases/:tag_name/assets/links';

export function linkRoutes(app: FastifyInstance, deps: Deps): void {
  const releaseOf = async (ctx: RouteContext<any>) => {
    const access = await ctx.project();
    return { access, release: await findRelease(deps.db, Number(access.project.id), String(ctx.params.tag_name)) };
  };
  const linkOf = async (releaseId: number, linkId: number) => {
    const link = await deps.db.selectFrom('release_links').selectAll().where('release_id', '=', releaseId).where('id', '=', linkId).executeTakeFirst();
    if (!link) throw new RecordNotFoundError();
    return link;
  };
  const present = (fullPath: string, tagName: string, link: Parameters<typeof linkEntity>[3]) => linkEntity(deps.config.baseUrl, fullPath, tagName, link);

  apiRoute(app, deps, {
    method: 'GET', url: BASE, summary: "A release's asset links", tags: TAGS, paginated: true,
    ability: { project: 'read_release' }, auth: 'optional',
    params: { id: p.string.required(), tag_name: p.string.required() },
    handler: async (ctx) => {
      const { access, release } = await releaseOf(ctx);
      const rows = await ctx.paginate(deps.db.selectFrom('release_links').selectAll().where('release_id', '=', release.id).orderBy('created_at', 'desc').orderBy('id', 'desc'));
      return rows.map((link) => present(access.project.full_path, release.tag_name, link));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: `${BASE}/:link_id`, summary: 'One asset link', tags: TAGS,
    ability: { project: 'read_release' }, auth: 'optional',
    params: { id: p.string.required(), tag_name: p.string.required(), link_id: p.integer.required() },
    handler: async (ctx) => {
      const { access, release } = await releaseOf(ctx);
      return present(access.project.full_path, release.tag_name, await linkOf(Number(release.id), ctx.params.link_id));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: BASE, summary: 'Add an asset link to a release', tags: TAGS,
    ability: { project: 'update_release' },
    params: {
      id: p.string.required(), tag_name: p.string.required(), name: p.string.required(), url: p.string.required(),
      direct_asset_path: p.string.optional(), filepath: p.string.optional({ description: 'Deprecated: use direct_asset_path' }),
      link_type: p.string.optional({ values: LINK_TYPES }),
    },
    handler: async (ctx) => {
      const { access, release } = await releaseOf(ctx);
      const { params } = ctx;
      const link = await insertLink(deps.db, Number(release.id), {
        name: params.name, url: params.url, filepath: normalFilepath(params.direct_asset_path ?? params.filepath), linkType: params.link_type as ReleaseLinkType | undefined,
      }, deps.clock.now());
      return present(access.project.full_path, release.tag_name, link);
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: `${BASE}/:link_id`, summary: 'Change an asset link', tags: TAGS,
    ability: { project: 'update_release' },
    params: {
      id: p.string.required(), tag_name: p.string.required(), link_id: p.integer.required(), name: p.string.optional(), url: p.string.optional(),
      direct_asset_path: p.string.optional(), filepath: p.string.optional(), link_type: p.string.optional({ values: LINK_TYPES }),
    },
    handler: async (ctx) => {
      const { access, release } = await releaseOf(ctx);
      const { params } = ctx;
      const link = await linkOf(Number(release.id), params.link_id);
      const filepath = normalFilepath(params.direct_asset_path ?? params.filepath);
      const next = { name: params.name ?? link.name, url: params.url ?? link.url, filepath: filepath === undefined ? link.filepath : filepath, linkType: (params.link_type ?? link.link_type) as ReleaseLinkType };
      const errors = await linkProblems(deps.db, Number(release.id), next, Number(link.id));
      if (Object.keys(errors).length) throw new ValidationError(errors);
      const updated = await deps.db.updateTable('release_links')
        .set({ name: next.name, url: next.url, filepath: next.filepath, link_type: next.linkType, updated_at: deps.clock.now() })
        .where('id', '=', link.id).returningAll().executeTakeFirstOrThrow();
      return present(access.project.full_path, release.tag_name, updated);
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: `${BASE}/:link_id`, summary: 'Delete an asset link (answers the deleted link)', tags: TAGS, status: 200,
    ability: { project: 'update_release' },
    params: { id: p.string.required(), tag_name: p.string.required(), link_id: p.integer.required() },
    handler: async (ctx) => {
      const { access, release } = await releaseOf(ctx);
      const link = await linkOf(Number(release.id), ctx.params.link_id);
      await deps.db.deleteFrom('release_links').where('id', '=', link.id).execute();
      return present(access.project.full_path, release.tag_name, link);
    },
  });
}
