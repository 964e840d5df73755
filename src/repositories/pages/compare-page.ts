// Two revisions compared (GitLab's compare page, `from...to`): the commits of `to` not in `from`,
// then the diff from their merge base.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { page } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { compareRefs } from '../repository-api/pages-api.js';
import { commitList, diffView } from './shared.js';

export const COMPARE_PATTERN = /^(?<path>.+?)\/-\/compare\/(?<from>.+?)\.\.\.(?<to>.+)$/;

export async function renderCompare(context: PageContext, access: ProjectAccess) {
  const { from, to } = context.match;
  const comparison = await compareRefs(context.deps, access, { from, to, straight: false, unidiff: false });
  const base = `/${access.project.full_path}`;
  const body = html`
<p>Comparing <code>${from}</code> with <code>${to}</code></p>
${comparison.same ? html`<p class="empty">These are the same revision: nothing to compare.</p>` : html`
<h2>Commits <span class="badge">${comparison.commits.length}</span></h2>
${comparison.commits.length ? commitList(base, comparison.commits) : html`<p class="empty">No commits.</p>`}
<h2>Changes</h2>
${diffView(comparison.diffs)}`}`;
  return page({ title: `Compare ${from}...${to} · ${access.project.name}`, heading: html`<h1>Compare</h1>`, body, sidebar: projectSidebar(access, 'repository') });
}
