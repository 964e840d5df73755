// GET /<project>/-/commits/<ref>[/<path>] (GitLab's commit list): the history of a ref, or of one
// file or folder at it, 40 a page, newest first, grouped by day, each with its author's avatar and,
// where a commit has statuses, the latest one.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { page } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { revList } from '../repository-api/git-reads.js';
import { readCommits } from '../repository-api/object-reader.js';
import { resolveRef } from './resolve-ref.js';
import { refBar } from './ref-bar.js';
import { commitList } from './commit-list.js';
import { findAuthors } from './people.js';
import { repoUrl } from './urls.js';
import { commitStatusBadges, statusBadge } from './commit-status.js';
import { signatureBadges } from '../commit-signatures/badge.js';

export const COMMITS_PATTERN = /^(?<path>.+?)\/-\/commits\/(?<rest>.+)$/;
export const COMMITS_PER_PAGE = 40;
const MAX_PAGE = 10_000;

export async function renderCommits(context: PageContext, access: ProjectAccess) {
  const resolved = await resolveRef(context.deps, access, context.match.rest);
  const base = `/${access.project.full_path}`;
  const pageNumber = Math.min(MAX_PAGE, Math.max(1, Number.parseInt(context.query.page ?? '1', 10) || 1));
  // One more than a page: whether there is a next one, without counting the history.
  const ids = await revList(resolved.repoPath, { revisions: [resolved.commit.id], path: resolved.path || undefined, skip: (pageNumber - 1) * COMMITS_PER_PAGE, maxCount: COMMITS_PER_PAGE + 1 });
  const commits = await readCommits(resolved.repoPath, ids.slice(0, COMMITS_PER_PAGE));
  const shown = ids.slice(0, COMMITS_PER_PAGE).flatMap((id) => (commits.has(id) ? [commits.get(id)!] : []));
  const [authors, statuses, signatures] = await Promise.all([
    findAuthors(context.deps, shown.map((commit) => commit.author)),
    commitStatusBadges(context.deps, access.project, shown.map((commit) => commit.id)),
    signatureBadges(context.deps, access.project, resolved.repoPath, shown.map((commit) => commit.id)),
  ]);
  const here = repoUrl(base, 'commits', resolved.ref, resolved.path);
  const body = html`
${refBar({ access, resolved, destination: 'commits', leaf: 'commits' })}
${shown.length ? commitList({ base, authors, nowMs: context.deps.clock.now(), statusOf: (commit) => html`${signatures.get(commit.id) ?? ''}${statusBadge(statuses.get(commit.id)) ?? ''}` }, shown) : html`<p class="empty">No commits${resolved.path ? html` changed <code>${resolved.path}</code>` : ''}.</p>`}
<nav class="pagination" aria-label="Pages">${pageNumber > 1 ? html`<a href="${here}?page=${pageNumber - 1}" rel="prev">Newer</a>` : ''}${ids.length > COMMITS_PER_PAGE ? html`<a href="${here}?page=${pageNumber + 1}" rel="next">Older</a>` : ''}</nav>`;
  return page({ title: `Commits · ${resolved.path || resolved.ref} · ${access.project.name}`, heading: html`<h1>Commits${resolved.path ? html` of <code>${resolved.path}</code>` : ''}</h1>`, body, sidebar: projectSidebar(access, 'repository') });
}
