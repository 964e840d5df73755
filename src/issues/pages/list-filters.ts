// The issue list's filters (GitLab's issue list: author, assignee, labels, milestone, search,
// confidentiality, sort) as query parameters with GitLab's web names — `author_username`,
// `assignee_username` (or `None` / `Any`), `label_name` (repeated), `milestone_title` (or `None` /
// `Any` / `Upcoming` / `Started`), `search`, `confidential` (`yes` / `no`), `sort` — read into the
// listing's IssueFilters, and kept in every tab and page link. The form is a plain GET form.
import type { Deps } from '../../platform/deps.js';
import type { NamespaceRow, ProjectRow } from '../../platform/auth/subjects.js';
import { html, type Html } from '../../platform/web/html.js';
import { availableLabelsQuery } from '../../labels/api.js';
import { milestonesQuery } from '../../milestones/api.js';
import { ANY, NONE, type IssueFilters, type OrderBy } from '../issues-queries.js';

/** GitLab's sort names on the issue list, with the ordering each means. */
const SORTS: ReadonlyArray<readonly [string, string, OrderBy, 'asc' | 'desc']> = [
  ['created_date', 'Created date (newest)', 'created_at', 'desc'],
  ['created_asc', 'Created date (oldest)', 'created_at', 'asc'],
  ['updated_desc', 'Updated date (newest)', 'updated_at', 'desc'],
  ['updated_asc', 'Updated date (oldest)', 'updated_at', 'asc'],
  ['due_date', 'Due date (soonest)', 'due_date', 'asc'],
  ['due_date_desc', 'Due date (latest)', 'due_date', 'desc'],
  ['milestone_due', 'Milestone due date', 'milestone_due', 'asc'],
  ['popularity', 'Popularity', 'popularity', 'desc'],
  ['title_asc', 'Title (A–Z)', 'title', 'asc'],
  ['title_desc', 'Title (Z–A)', 'title', 'desc'],
];
const MAX_TEXT = 255;
const MAX_LABELS = 10;

/** The filters as the page keeps them: normalised query parameters, and what the listing applies. */
export interface ListFilters {
  params: Array<[string, string]>;
  filters: IssueFilters;
  values: { search: string; author: string; assignee: string; labels: string[]; milestone: string; confidential: string; sort: string };
}

function text(value: unknown): string {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first.trim().slice(0, MAX_TEXT) : '';
}

function texts(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return [...new Set(list.filter((item): item is string => typeof item === 'string').map((item) => item.trim().slice(0, MAX_TEXT)).filter(Boolean))].slice(0, MAX_LABELS);
}

export function listFiltersOf(query: Record<string, unknown>): ListFilters {
  const search = text(query.search);
  const author = text(query.author_username);
  const assignee = text(query.assignee_username);
  const labels = texts(query.label_name ?? query['label_name[]']);
  const milestone = text(query.milestone_title);
  const confidential = ['yes', 'no'].includes(text(query.confidential)) ? text(query.confidential) : '';
  const sortRow = SORTS.find(([name]) => name === text(query.sort));
  const filters: IssueFilters = {};
  if (search) filters.search = search;
  if (author) filters.authorUsername = author;
  if (assignee.toLowerCase() === NONE || assignee.toLowerCase() === ANY) filters.assigneeId = assignee.toLowerCase() as typeof NONE;
  else if (assignee) filters.assigneeUsernames = [assignee];
  if (labels.length) filters.labels = labels;
  if (milestone) filters.milestone = ['none', 'any', 'upcoming', 'started'].includes(milestone.toLowerCase()) ? milestone.toLowerCase() : milestone;
  if (confidential) filters.confidential = confidential === 'yes';
  filters.orderBy = sortRow?.[2] ?? 'created_at';
  filters.sort = sortRow?.[3] ?? 'desc';
  const params: Array<[string, string]> = [];
  if (search) params.push(['search', search]);
  if (author) params.push(['author_username', author]);
  if (assignee) params.push(['assignee_username', assignee]);
  for (const label of labels) params.push(['label_name', label]);
  if (milestone) params.push(['milestone_title', milestone]);
  if (confidential) params.push(['confidential', confidential]);
  if (sortRow) params.push(['sort', sortRow[0]]);
  return { params, filters, values: { search, author, assignee, labels, milestone, confidential, sort: sortRow?.[0] ?? 'created_date' } };
}

/** Labels and open milestones the project or group sees, offered by the form (the first 200 of each). */
export async function filterChoices(deps: Deps, parent: { project: ProjectRow } | { group: NamespaceRow }) {
  const [labels, milestones] = await Promise.all([
    (await availableLabelsQuery(deps, parent)).limit(200).execute(),
    (await milestonesQuery(deps, parent, { state: 'active', includeAncestors: true })).limit(200).execute(),
  ]);
  return { labels: labels.map((label) => label.title), milestones: milestones.map((milestone) => milestone.title) };
}

function option(value: string, label: string, selected: boolean): Html {
  return html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`;
}

/** The filter form: a GET to the list itself, keeping the state tab. */
export function filterForm(action: string, state: string, list: ListFilters, choices: { labels: string[]; milestones: string[] }, noun: string): Html {
  const { values } = list;
  // A value typed in the address but not offered (an old milestone) stays selected.
  const labels = [...new Set([...choices.labels, ...values.labels])];
  const milestones = [...new Set([...choices.milestones, ...(values.milestone && !['none', 'any', 'upcoming', 'started'].includes(values.milestone.toLowerCase()) ? [values.milestone] : [])])];
  const active = list.params.some(([name]) => name !== 'sort');
  return html`<form method="get" action="${action}" class="issue-filters" role="search" aria-label="Filter ${noun}">
  <input type="hidden" name="state" value="${state}">
  <p><label for="filter-search">Search</label> <input id="filter-search" type="search" name="search" value="${values.search}" placeholder="Search or filter results"></p>
  <p><label for="filter-author">Author</label> <input id="filter-author" name="author_username" value="${values.author}" placeholder="username" autocomplete="off"></p>
  <p><label for="filter-assignee">Assignee</label> <input id="filter-assignee" name="assignee_username" value="${values.assignee}" placeholder="username, None or Any" autocomplete="off"></p>
  <p><label for="filter-labels">Labels</label> <select id="filter-labels" name="label_name" multiple size="${Math.min(4, Math.max(2, labels.length))}">${labels.map((title) => option(title, title, values.labels.includes(title)))}</select></p>
  <p><label for="filter-milestone">Milestone</label> <select id="filter-milestone" name="milestone_title">${option('', 'Any or none', values.milestone === '')}${option('None', 'None', values.milestone.toLowerCase() === 'none')}${option('Any', 'Any', values.milestone.toLowerCase() === 'any')}${option('Upcoming', 'Upcoming', values.milestone.toLowerCase() === 'upcoming')}${option('Started', 'Started', values.milestone.toLowerCase() === 'started')}${milestones.map((title) => option(title, title, values.milestone === title))}</select></p>
  <p><label for="filter-confidential">Confidential</label> <select id="filter-confidential" name="confidential">${option('', 'Either', values.confidential === '')}${option('yes', 'Confidential', values.confidential === 'yes')}${option('no', 'Not confidential', values.confidential === 'no')}</select></p>
  <p><label for="filter-sort">Sort by</label> <select id="filter-sort" name="sort">${SORTS.map(([name, label]) => option(name, label, values.sort === name))}</select></p>
  <p><button type="submit" class="secondary">Apply</button>${active ? html` <a href="${action}?state=${state}">Clear filters</a>` : ''}</p>
</form>`;
}
