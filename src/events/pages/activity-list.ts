// A list of activity events as pages show them: who did what to which target, when. The same
// listings, visibility and filters as the events API (finder.ts); shared by the activity pages, the
// project overview and user profiles (events/api.ts).
import type { Deps } from '../../platform/deps.js';
import { isoTime } from '../../platform/clock.js';
import { html, type Html } from '../../platform/web/html.js';
import { parsePushData } from '../entities.js';
import { actionName } from '../vocabulary.js';
import { EVENT_TARGET_TYPES } from '../../platform/events/vocabulary.js';
import { encodePathSegments } from '../../platform/web/url-paths.js';
import { isNoteEvent, listEvents, wikiPagesForEvents, type EventFilters, type EventRow, type EventSubject, type WikiPageOfEvent } from '../finder.js';
import type { Viewer } from '../visibility.js';

/** The filter tabs of GitLab's activity pages and the events each shows. */
export const ACTIVITY_FILTERS: Record<string, { label: string; filters: EventFilters }> = {
  all: { label: 'All', filters: {} },
  push: { label: 'Push events', filters: { action: 'pushed' } },
  // GitLab's `merged` filter is the merged action (EventFilter#apply_filter), which only merge requests have.
  merged: { label: 'Merge events', filters: { action: 'merged' } },
  issue: { label: 'Issue events', filters: { targetType: 'issue' } },
  comments: { label: 'Comments', filters: { action: 'commented' } },
  // Wiki page events: the finder shows them only to who may read the project's wiki.
  wiki: { label: 'Wiki', filters: { targetType: 'wiki' } },
  team: { label: 'Team', filters: { targetType: 'user' } },
};

async function projectPaths(deps: Deps, rows: EventRow[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.map((row) => row.project_id).filter((id): id is number => id !== null))];
  if (ids.length === 0) return new Map();
  const projects = await deps.db.selectFrom('projects').select(['id', 'full_path']).where('id', 'in', ids).execute();
  return new Map(projects.map((project) => [Number(project.id), project.full_path]));
}

/** Where an issue, merge request or milestone of a project is shown, with GitLab's reference sign. */
const IID_TARGETS: Record<string, { route: string; sign: string }> = {
  [EVENT_TARGET_TYPES.issue]: { route: 'issues', sign: '#' },
  [EVENT_TARGET_TYPES.merge_request]: { route: 'merge_requests', sign: '!' },
  [EVENT_TARGET_TYPES.milestone]: { route: 'milestones', sign: '%' },
};

function targetOf(row: EventRow, projectPath: string | undefined, wikiPages: Map<number, WikiPageOfEvent>): Html {
  const numbered = row.target_type ? IID_TARGETS[row.target_type] : undefined;
  // A destroyed milestone has no page left; issues and merge requests keep theirs (GitLab links them all the same).
  if (numbered && projectPath && row.target_iid !== null && !(row.target_type === EVENT_TARGET_TYPES.milestone && row.action === 'destroyed')) {
    const iid = Number(row.target_iid);
    const label = numbered.sign === '%' ? html`${numbered.sign}${row.target_title ?? iid}` : html`${numbered.sign}${iid} ${row.target_title ?? ''}`;
    return html` <a href="/${projectPath}/-/${numbered.route}/${iid}">${label}</a>`;
  }
  if (row.target_type === EVENT_TARGET_TYPES.wiki) {
    // The page as it is now (its slug may have moved on by a rename); a deleted page is named, not linked.
    const wikiPage = row.target_id === null ? undefined : wikiPages.get(Number(row.target_id));
    if (wikiPage && !wikiPage.removed && projectPath) return html` wiki page <a href="/${projectPath}/-/wikis/${encodePathSegments(wikiPage.slug)}">${wikiPage.title}</a>`;
    return html` wiki page <span class="target">${row.target_title ?? ''}</span>`;
  }
  if (isNoteEvent(row)) return html` a comment${row.target_title ? html` on <span class="target">${row.target_title}</span>` : ''}`;
  if (row.action === 'pushed') {
    const push = parsePushData(row.push_data);
    return push ? html` ${push.ref_type} <code>${push.ref}</code>${push.commit_title ? html` <span class="muted">${push.commit_title}</span>` : ''}` : html``;
  }
  return row.target_title ? html` <span class="target">${row.target_title}</span>` : html``;
}

export interface ActivityOptions {
  filter?: string;
  limit?: number;
  offset?: number;
  /** Name the project on each line (lists across projects). */
  showProject?: boolean;
}

/** The events, newest first, with one more row fetched than shown so the caller knows of a next page. */
export async function renderActivity(deps: Deps, viewer: Viewer, subject: EventSubject, options: ActivityOptions = {}): Promise<{ list: Html; more: boolean }> {
  const limit = options.limit ?? 20;
  const filters = ACTIVITY_FILTERS[options.filter ?? 'all']?.filters ?? {};
  const listing = await listEvents(deps, viewer, subject, filters);
  const rows = await listing.page(options.offset ?? 0, limit + 1);
  const shown = rows.slice(0, limit);
  const [paths, wikiPages] = await Promise.all([projectPaths(deps, shown), wikiPagesForEvents(deps, shown)]);
  if (shown.length === 0) return { list: html`<p class="empty">No activity to show.</p>`, more: false };
  const list = html`<ul class="activity" id="activity">${shown.map((row) => {
    const path = row.project_id === null ? undefined : paths.get(Number(row.project_id));
    const push = row.action === 'pushed' ? parsePushData(row.push_data) : null;
    return html`<li class="event"><a href="/${row.username}">${row.name}</a> ${actionName({ action: row.action, target_type: row.target_type, push_data: push })}${targetOf(row, path, wikiPages)}${
      options.showProject && path ? html` at <a href="/${path}">${path}</a>` : ''
    } <span class="muted"><time datetime="${isoTime(row.created_at)}">${isoTime(row.created_at)?.slice(0, 16).replace('T', ' ')} UTC</time></span></li>`;
  })}</ul>`;
  return { list, more: rows.length > limit };
}

/** The filter tabs, each a link keeping the rest of the query. */
export function activityTabs(base: string, current: string): Html {
  return html`<nav class="tabs" aria-label="Event filters">${Object.entries(ACTIVITY_FILTERS).map(
    ([name, { label }]) => html`<a href="${base}?event_filter=${name}" class="${name === current ? 'active' : ''}" data-filter="${name}"${name === current ? html` aria-current="page"` : ''}>${label}</a>`,
  )}</nav>`;
}
