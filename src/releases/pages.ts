// The releases pages (GitLab's Deploy › Releases): a project's releases, latest first, with their notes
// rendered as Markdown, asset links and source archives; one release at its `_links.self`; a direct
// asset path answered with a redirect to its link's URL; an evidence's JSON.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { canOnProject } from '../platform/auth/policies/index.js';
import { html, raw } from '../platform/web/html.js';
import { namespacedPage, type PageContext } from '../platform/web/page-route.js';
import { ANSWERED, page, redirect } from '../platform/web/page.js';
import { projectSidebar } from '../platform/web/project-nav.js';
import { NotFoundError } from '../platform/errors.js';
import { findRelease, releasesQuery, type ReleaseRow } from './finder.js';
import { presentReleases } from './entities.js';

export const RELEASES_PATTERN = /^(?<path>.+?)\/-\/releases$/;
export const RELEASE_PATTERN = /^(?<path>.+?)\/-\/releases\/(?<tag>[^/]+)$/;
export const DOWNLOAD_PATTERN = /^(?<path>.+?)\/-\/releases\/(?<tag>[^/]+)\/downloads(?<file>\/.+)$/;
export const EVIDENCE_PATTERN = /^(?<path>.+?)\/-\/releases\/(?<tag>[^/]+)\/evidences\/(?<id>\d+)\.json$/;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new NotFoundError();
  }
}

async function releaseArticles(context: PageContext, access: ProjectAccess, rows: ReleaseRow[]) {
  const presented = await presentReleases(context.deps, access, rows, { html: true });
  return presented.map((release) => html`
<article class="release" data-release="${release.tag_name ?? release.name}">
  <h2><a href="${release._links.self}">${release.name}</a>${release.upcoming_release ? html` <span class="badge">Upcoming release</span>` : ''}</h2>
  <p class="muted">${release.tag_name ? html`<code>${release.tag_name}</code> · ` : ''}Released ${release.released_at?.slice(0, 10)}${release.author ? html` by <a href="/${release.author.username}">${release.author.name}</a>` : ''}</p>
  ${release.milestones?.length ? html`<p>Milestones: ${release.milestones.map((milestone, index) => html`${index ? ', ' : ''}<a href="${milestone.web_url}">${milestone.title}</a>`)}</p>` : ''}
  <div class="markdown">${raw(release.description_html ?? '')}</div>
  <h3>Assets <span class="badge">${release.assets.count}</span></h3>
  <ul>${release.assets.links.map((link) => html`<li><a href="${link.direct_asset_url}" rel="noopener noreferrer">${link.name}</a> <span class="muted">${link.link_type}</span></li>`)}${
    (release.assets.sources ?? []).map((source) => html`<li><a href="${source.url}">Source code (${source.format})</a></li>`)}</ul>
</article>`);
}

async function renderReleases(context: PageContext, access: ProjectAccess) {
  const rows = await releasesQuery(context.deps, [Number(access.project.id)], { orderBy: 'released_at', sort: 'desc' }).limit(50).execute();
  const articles = await releaseArticles(context, access, rows);
  const body = rows.length ? html`${articles}` : html`<p class="empty">No releases yet. Make one with POST /api/v4/projects/:id/releases.</p>`;
  return page({ title: `Releases · ${access.project.name}`, heading: html`<h1>Releases</h1>`, body, sidebar: projectSidebar(access, 'releases') });
}

async function renderRelease(context: PageContext, access: ProjectAccess) {
  const release = await findRelease(context.deps.db, Number(access.project.id), decoded(context.match.tag));
  const [article] = await releaseArticles(context, access, [release]);
  return page({ title: `${release.name} · Releases · ${access.project.name}`, heading: html`<h1>${release.name}</h1>`, body: article, sidebar: projectSidebar(access, 'releases') });
}

export function releasePages(app: FastifyInstance, deps: Deps): void {
  const read = { project: 'read_release' } as const;
  namespacedPage(app, deps, { method: 'GET', pattern: RELEASES_PATTERN, ability: read, auth: 'optional', handler: async (context) => renderReleases(context, await context.project()) });
  namespacedPage(app, deps, { method: 'GET', pattern: RELEASE_PATTERN, ability: read, auth: 'optional', handler: async (context) => renderRelease(context, await context.project()) });
  namespacedPage(app, deps, {
    method: 'GET', pattern: DOWNLOAD_PATTERN, ability: read, auth: 'optional',
    handler: async (context) => {
      const access = await context.project();
      const release = await findRelease(deps.db, Number(access.project.id), decoded(context.match.tag));
      const link = await deps.db.selectFrom('release_links').select('url').where('release_id', '=', release.id).where('filepath', '=', decoded(context.match.file)).executeTakeFirst();
      if (!link) throw new NotFoundError();
      return redirect(link.url, null, 302);
    },
  });
  namespacedPage(app, deps, {
    method: 'GET', pattern: EVIDENCE_PATTERN, ability: read, auth: 'optional',
    handler: async (context) => {
      const access = await context.project();
      if (!canOnProject(access, 'download_code')) throw new NotFoundError();
      const release = await findRelease(deps.db, Number(access.project.id), decoded(context.match.tag));
      const evidence = await deps.db.selectFrom('release_evidences').select('summary').where('release_id', '=', release.id).where('id', '=', Number(context.match.id)).executeTakeFirst();
      if (!evidence) throw new NotFoundError();
      context.reply.type('application/json').send(evidence.summary);
      return ANSWERED;
    },
  });
}
