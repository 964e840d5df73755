// The commits of a merge request (or of a branch comparison before one is opened), newest first:
// title linked to the commit page, author name, short SHA.
import { html, type Html } from '../../platform/web/html.js';
import type { CommitObject } from '../../repositories/api.js';

export function mergeRequestCommits(projectBase: string, commits: readonly CommitObject[]): Html {
  if (commits.length === 0) return html`<p class="empty">No commits.</p>`;
  return html`<ul class="plain mr-commits">${commits.map((commit) => {
    const title = commit.message.split('\n')[0] ?? '';
    const date = new Date(commit.author.seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
    return html`<li data-commit="${commit.id}"><a href="${projectBase}/-/commit/${commit.id}">${title}</a><br><span class="muted">${commit.author.name} · ${date} UTC · <code>${commit.id.slice(0, 8)}</code></span></li>`;
  })}</ul>`;
}
