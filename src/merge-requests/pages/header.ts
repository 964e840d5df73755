// The top of every merge request page: title, state, draft, who wants to merge which branch into
// which, and the Overview / Commits / Changes tabs with their counts.
import { html, type Html } from '../../platform/web/html.js';
import type { Users } from '../entities.js';
import type { MergeRequestRow } from '../rows.js';
import { isDraftTitle } from '../draft.js';
import { mrStateBadge, userLink } from './shared.js';
import { when } from './time.js';

export type MergeRequestTab = 'overview' | 'commits' | 'diffs';

export interface HeaderInput {
  mr: MergeRequestRow;
  users: Users;
  self: string;
  projectBase: string;
  tab: MergeRequestTab;
  counts: { notes: number; commits: number | null; changes: string | null };
}

export function mergeRequestHeading(mr: MergeRequestRow): Html {
  return html`<h1 id="mr-title">${mr.title} <span class="muted">!${mr.iid}</span></h1>`;
}

export function mergeRequestHeader(input: HeaderInput): Html {
  const { mr, users, self, projectBase, tab, counts } = input;
  const branch = (name: string) => html`<a href="${projectBase}/-/tree/${name}"><code>${name}</code></a>`;
  const tabs: [MergeRequestTab, string, string, number | string | null][] = [
    ['overview', 'Overview', self, counts.notes],
    ['commits', 'Commits', `${self}/commits`, counts.commits],
    ['diffs', 'Changes', `${self}/diffs`, counts.changes],
  ];
  return html`<p class="mr-meta">${mrStateBadge(mr)} ${isDraftTitle(mr.title) ? html`<span class="badge" id="draft-badge">Draft</span>` : ''} <span class="muted">${userLink(users, mr.author_id)} requested to merge ${branch(mr.source_branch)} into ${branch(mr.target_branch)} · opened ${when(mr.created_at)}</span></p>
<nav class="tabs" aria-label="Merge request">${tabs.map(([name, label, href, count]) => html`<a href="${href}" class="${name === tab ? 'active' : ''}" data-tab="${name}"${name === tab ? html` aria-current="page"` : ''}>${label}${count === null ? '' : html` <span class="badge">${count}</span>`}</a>`)}</nav>`;
}
