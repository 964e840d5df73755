// One commit (GitLab's project commit page): its message, author, parents and the diff as text.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { page } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { diffOf, findProjectCommit } from '../repository-api/pages-api.js';
import { authorLine, commitTitle, diffView, signedAt } from './shared.js';

export const COMMIT_PATTERN = /^(?<path>.+?)\/-\/commit\/(?<sha>[0-9a-fA-F]{4,64})$/;

export async function renderCommit(context: PageContext, access: ProjectAccess) {
  const found = await findProjectCommit(context.deps, access, context.match.sha);
  const diffs = await diffOf(found);
  const { commit } = found;
  const base = `/${access.project.full_path}`;
  const body = html`
<p><code class="sha">${commit.id}</code></p>
<pre class="commit-message">${commit.message.trimEnd()}</pre>
<p>${authorLine(commit)}${commit.committer.name !== commit.author.name ? html` · <span class="muted">committed by ${commit.committer.name} ${signedAt(commit.committer)}</span>` : ''}</p>
<p>${commit.parents.length ? html`${commit.parents.length === 1 ? 'Parent' : 'Parents'} ${commit.parents.map((parent) => html`<a href="${base}/-/commit/${parent}"><code>${parent.slice(0, 8)}</code></a> `)}` : html`<span class="muted">No parents (root commit)</span>`}
 · <a href="${base}/-/tree/${commit.id}">Browse files</a></p>
<h2>Changes</h2>
${diffView(diffs)}`;
  return page({ title: `${commitTitle(commit)} · Commit ${commit.id.slice(0, 8)} · ${access.project.name}`, heading: html`<h1>Commit <code>${commit.id.slice(0, 8)}</code></h1>`, body, sidebar: projectSidebar(access, 'repository') });
}
