// Releases (doc/api/releases/index.md; lib/api/releases.rb): read by whoever reads the project's
// repository (Guests too), made, changed and deleted by Developers. `:tag_name` is URL-encoded when
// it holds a slash. `permalink/latest` redirects to the most recently released one.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { NotFoundError } from '../platform/errors.js';
import { canOnProject } from '../platform/auth/policies/index.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { groupProjectsQuery, projectAccess } from '../accounts/api.js';
import { findRelease, latestRelease, releasesQuery, type ReleaseOrder } from './finder.js';
import { presentRelease, presentReleases } from './entities.js';
import { createRelease } from './create-release.js';
import { updateRelease } from './update-release.js';
import { deleteRelease } from './delete-release.js';
import { milestoneIds, parseLinks, parseTime } from './release-input.js';

const TAGS = ['releases'];
const ORDER = {
  order_by: p.string.optional({ values: ['released_at', 'created_at'], default: 'released_at' }),
  sort: p.string.optional({ values: ['asc', 'desc'], default: 'desc' }),
};

export function releaseRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/releases', summary: "List a project's releases, latest first", tags: TAGS, jobToken: true, paginated: true,
    ability: { project: 'read_release' }, auth: 'optional',
    params: { id: p.string.required(), ...ORDER, include_html_description: p.boolean.optional() },
    handler: async ({ params, project, paginate }) => {
      const access = await project();
      const rows = await paginate(releasesQuery(deps, [Number(access.project.id)], { orderBy: params.order_by, sort: params.sort } as ReleaseOrder));
      return presentReleases(deps, access, rows, { html: params.include_html_description });
    },
  });

  for (const suffix of ['', '/*']) {
    apiRoute(app, deps, {
      method: 'GET', url: `/projects/:id/releases/permalink/latest${suffix}`, summary: 'Redirect to the latest release (and the path after it)', tags: TAGS, status: 302,
      ability: { project: 'read_release' }, auth: 'optional',
      params: { id: p.string.required() },
      handler: async ({ project, request, reply }) => {
        const access = await project();
        const latest = await latestRelease(deps.db, Number(access.project.id));
        if (!latest) throw new NotFoundError();
        const [path, query] = request.url.split(/\?(.*)/s, 2);
        const rest = path.replace(/^.*?\/permalink\/latest/, '');
        reply.header('location', `${deps.config.baseUrl}/api/v4/projects/${Number(access.project.id)}/releases/${encodeURIComponent(latest.tag_name)}${rest}${query ? `?${query}` : ''}`);
        return undefined;
      },
    });
  }

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/releases/:tag_name', summary: 'One release by its tag', tags: TAGS, jobToken: true,
    ability: { project: 'read_release' }, auth: 'optional',
    params: { id: p.string.required(), tag_name: p.string.required(), include_html_description: p.boolean.optional() },
    handler: async ({ params, project }) => {
      const access = await project();
      return presentRelease(deps, access, await findRelease(deps.db, Number(access.project.id), params.tag_name), { html: params.include_html_description });
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/releases', summary: 'Make a release of an existing tag, or of a new tag made from ref', tags: TAGS, jobToken: true,
    ability: { project: 'create_release' },
    params: {
      id: p.string.required(),
      tag_name: p.string.required({ max: 255 }),
      tag_message: p.string.optional(),
      name: p.string.optional(),
      description: p.string.optional(),
      ref: p.string.optional(),
      milestones: p.strings.optional(),
      milestone_ids: p.strings.optional(),
      assets: p.json.optional({ description: 'assets[links]: an array of {name, url, direct_asset_path, link_type}' }),
      released_at: p.string.optional({ description: 'ISO 8601; a future date makes an upcoming release' }),
    },
    handler: async ({ params, project }) => {
      const access = await project();
      const releasedAt = parseTime('released_at', params.released_at);
      const links = parseLinks(params.assets);
      const release = await createRelease(deps, access, {
        tagName: params.tag_name, tagMessage: params.tag_message, name: params.name, description: params.description, ref: params.ref,
        milestoneIds: await milestoneIds(deps.db, access.project, params.milestones, params.milestone_ids), releasedAt, links,
      });
      return presentRelease(deps, access, release);
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/projects/:id/releases/:tag_name', summary: "Change a release's name, notes, date or milestones", tags: TAGS, jobToken: true,
    ability: { project: 'update_release' },
    params: {
      id: p.string.required(), tag_name: p.string.required(), name: p.string.optional(), description: p.string.optional(),
      milestones: p.strings.optional(), milestone_ids: p.strings.optional(), released_at: p.string.optional(),
    },
    handler: async ({ params, project }) => {
      const access = await project();
      const release = await findRelease(deps.db, Number(access.project.id), params.tag_name);
      const updated = await updateRelease(deps, access, release, {
        name: params.name, description: params.description, releasedAt: parseTime('released_at', params.released_at),
        milestoneIds: await milestoneIds(deps.db, access.project, params.milestones, params.milestone_ids),
      });
      return presentRelease(deps, access, updated);
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/releases/:tag_name', summary: 'Delete a release (the tag stays)', tags: TAGS, jobToken: true, status: 200,
    ability: { project: 'destroy_release' },
    params: { id: p.string.required(), tag_name: p.string.required() },
    handler: async ({ params, project }) => {
      const access = await project();
      const release = await findRelease(deps.db, Number(access.project.id), params.tag_name);
      const presented = await presentRelease(deps, access, release);
      await deleteRelease(deps, access, release);
      return presented;
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/groups/:id/releases', summary: "Releases of a group's projects (and its subgroups') that you can read", tags: TAGS, paginated: true,
    ability: { group: 'read_group' }, auth: 'optional',
    params: { id: p.string.required(), sort: ORDER.sort, simple: p.boolean.optional() },
    handler: async ({ params, principal, group, paginate }) => {
      const access = await group();
      const user = principal?.user ?? null;
      // Bounded: the first 1,000 projects the caller sees in the group and its subgroups.
      const projects = await (await groupProjectsQuery(deps, user, access.group, { includeSubgroups: true })).limit(1000).execute();
      const accesses = new Map<number, ProjectAccess>();
      for (const row of projects) {
        const { level, namespace } = await projectAccess(deps.reads, user, row, deps.clock.now());
        const candidate: ProjectAccess = { user, level, visibility: row.visibility, features: row, project: row, namespace };
        if (canOnProject(candidate, 'read_release')) accesses.set(Number(row.id), candidate);
      }
      const rows = await paginate(releasesQuery(deps, [...accesses.keys()], { orderBy: 'released_at', sort: params.sort as 'asc' | 'desc' }));
      const presented = [];
      for (const row of rows) presented.push(await presentRelease(deps, accesses.get(Number(row.project_id))!, row));
      return presented;
    },
  });
}
