// GET /<project>/-/graphs/<ref> (GitLab's contributors chart): commits per author of the ref's last
// 2,000 non-merge commits (repository-api/contributors.ts), drawn on the server as SVG bars, and
// commits per week over the last year; no chart library, nothing run in the browser.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html, type Html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { page } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { revList } from '../repository-api/git-reads.js';
import { readCommits } from '../repository-api/object-reader.js';
import { CONTRIBUTOR_COMMIT_LIMIT } from '../repository-api/contributors.js';
import { resolveRef } from './resolve-ref.js';
import { refBar } from './ref-bar.js';

export const GRAPHS_PATTERN = /^(?<path>.+?)\/-\/graphs\/(?<rest>.+)$/;
const SHOWN_AUTHORS = 30;
const WEEKS = 52;

function barChart(title: string, bars: { label: string; value: number }[], id: string): Html {
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const rowHeight = 22;
  const labelWidth = 220;
  const width = 760;
  const height = bars.length * rowHeight + 10;
  return html`<figure class="chart" id="${id}"><figcaption>${title}</figcaption><svg role="img" aria-label="${title}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${bars.map((bar, index) => {
    const y = index * rowHeight + 4;
    const length = Math.round(((width - labelWidth - 60) * bar.value) / max);
    return html`<text x="0" y="${y + 14}">${bar.label.length > 30 ? `${bar.label.slice(0, 29)}…` : bar.label}</text><rect class="bar" x="${labelWidth}" y="${y}" width="${Math.max(length, 1)}" height="${rowHeight - 6}"><title>${bar.label}: ${bar.value}</title></rect><text x="${labelWidth + length + 6}" y="${y + 14}">${bar.value}</text>`;
  })}</svg></figure>`;
}

export async function renderGraphs(context: PageContext, access: ProjectAccess) {
  const resolved = await resolveRef(context.deps, access, context.match.rest);
  const ids = await revList(resolved.repoPath, { revisions: [resolved.commit.id], noMerges: true, maxCount: CONTRIBUTOR_COMMIT_LIMIT });
  const commits = await readCommits(resolved.repoPath, ids);
  const byAuthor = new Map<string, { name: string; commits: number }>();
  const nowSeconds = Math.floor(context.deps.clock.now() / 1000);
  const weeks = new Array<number>(WEEKS).fill(0);
  for (const commit of commits.values()) {
    const key = commit.author.email.toLowerCase();
    const entry = byAuthor.get(key) ?? { name: commit.author.name, commits: 0 };
    entry.commits += 1;
    byAuthor.set(key, entry);
    const week = Math.floor((nowSeconds - commit.author.seconds) / (7 * 86400));
    if (week >= 0 && week < WEEKS) weeks[WEEKS - 1 - week] += 1;
  }
  const authors = [...byAuthor.values()].sort((a, b) => b.commits - a.commits || (a.name < b.name ? -1 : 1));
  const body = html`
${refBar({ access, resolved, destination: 'graphs', leaf: 'tree' })}
<p>${commits.size} ${commits.size === 1 ? 'commit' : 'commits'} by ${authors.length} ${authors.length === 1 ? 'author' : 'authors'}${ids.length >= CONTRIBUTOR_COMMIT_LIMIT ? html` (the last ${CONTRIBUTOR_COMMIT_LIMIT} commits)` : ''}, merges excluded.</p>
${authors.length ? barChart('Commits per author', authors.slice(0, SHOWN_AUTHORS).map((author) => ({ label: author.name, value: author.commits })), 'contributors-chart') : html`<p class="empty">No commits.</p>`}
${authors.length ? barChart('Commits per week, last 12 weeks', weeks.slice(-12).map((value, index) => ({ label: `${12 - index} ${12 - index === 1 ? 'week' : 'weeks'} ago`, value })), 'weeks-chart') : ''}
<table id="contributors"><caption class="visually-hidden">Contributors</caption><thead><tr><th scope="col">Author</th><th scope="col">Commits</th></tr></thead><tbody>${authors.map((author) => html`<tr><td>${author.name}</td><td>${author.commits}</td></tr>`)}</tbody></table>`;
  return page({ title: `Contributors · ${resolved.ref} · ${access.project.name}`, heading: html`<h1>Contributors</h1>`, body, sidebar: projectSidebar(access, 'repository') });
}
