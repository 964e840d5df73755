// A list of commits as GitLab's commit lists show them: grouped by the day they were committed (UTC),
// each with its author's avatar, title, author, age, short SHA and a link to browse its files.
import { html, type Html } from '../../platform/web/html.js';
import type { CommitObject } from '../repository-api/git-objects.js';
import { authorName, avatarOf, type AuthorDirectory } from './people.js';
import { timeElement } from './time.js';
import { commitTitle } from './shared.js';

export interface CommitListOptions {
  base: string;
  authors: AuthorDirectory;
  nowMs: number;
  /** Markup after a commit's SHA (its pipeline status), when there is any. */
  statusOf?(commit: CommitObject): Html | null;
}

function day(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

function commitRow(options: CommitListOptions, commit: CommitObject): Html {
  const { base } = options;
  return html`<li data-commit="${commit.id}">${avatarOf(options.authors, commit.author)}<div class="commit-main"><a class="commit-title" href="${base}/-/commit/${commit.id}">${commitTitle(commit)}</a><br><span class="muted">${authorName(options.authors, commit.author)} authored ${timeElement(commit.author.seconds, options.nowMs)}</span></div>${options.statusOf?.(commit) ?? ''}<a href="${base}/-/commit/${commit.id}"><code class="sha">${commit.id.slice(0, 8)}</code></a> <a class="button small secondary" href="${base}/-/tree/${commit.id}" aria-label="Browse the files of ${commit.id.slice(0, 8)}">Browse</a></li>`;
}

export function commitList(options: CommitListOptions, commits: readonly CommitObject[]): Html {
  const groups: { day: string; commits: CommitObject[] }[] = [];
  for (const commit of commits) {
    const key = day(commit.committer.seconds);
    const last = groups[groups.length - 1];
    if (last && last.day === key) last.commits.push(commit);
    else groups.push({ day: key, commits: [commit] });
  }
  return html`${groups.map((group) => html`<h3 class="commit-day">${group.day}</h3><ul class="commit-list">${group.commits.map((commit) => commitRow(options, commit))}</ul>`)}`;
}
