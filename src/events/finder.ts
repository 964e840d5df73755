// The events listings (GitLab's EventsFinder, GitLab's REST API documentation): a base query over `events e`,
// small optional filters applied one after another, visibility in SQL (visibility.ts), ordered by id.
import type { SelectQueryBuilder } from 'kysely';
import type { Deps } from '../platform/deps.js';
import { DAY_MS } from '../platform/clock.js';
import { EVENT_TARGET_TYPES, NOTE_TARGET_TYPES, type EventAction } from '../platform/events/vocabulary.js';
import { groupMemberships, memberRestriction, membershipsOf, visibleEventSql, type EventAccess, type MemberGroups, type Viewer } from './visibility.js';
import { inProjects, limitedAccessSql, literal, memberEventsSql, noEvents, wikiEventsReadableSql } from './visibility-queries.js';

export interface EventFilters {
  action?: EventAction;
  /** Lower-case filter value (`merge_request`), mapped to the stored class name. */
  targetType?: keyof typeof EVENT_TARGET_TYPES;
  /** `YYYY-MM-DD`: only events created before this day began (the day itself excluded). */
  before?: string;
  /** `YYYY-MM-DD`: only events created after this day ended (the day itself excluded). */
  after?: string;
  sort?: 'asc' | 'desc';
}

/**
 * Whose events: an author's, one readable project's (with what the viewer sees there), the projects
 * of some groups (a group and its subgroups: each event as visible to the viewer as anywhere else),
 * or the viewer's projects'.
 */
export type EventSubject =
  | { author: number }
  | { namespaces: number[] }
  | { project: number; access: EventAccess }
  | { memberOf: true }
  | { nobody: true };

/** Above this many member projects one index scan in id order beats a per-project merge. */
const MERGE_LIMIT = 100;

/** Day edges in UTC (GitLab compares in the server's zone, UTC): `before` < day start, `after` ≥ next day start. */
export function dayEdges(filters: Pick<EventFilters, 'before' | 'after'>): { before?: number; after?: number } {
  return {
    before: filters.before ? Date.parse(`${filters.before}T00:00:00.000Z`) : undefined,
    after: filters.after ? Date.parse(`${filters.after}T00:00:00.000Z`) + DAY_MS : undefined,
  };
}

function selectRows(deps: Deps) {
  return deps.db
    .selectFrom('events as e')
    .innerJoin('users as u', 'u.id', 'e.author_id')
    .select([
      'e.id', 'e.project_id', 'e.author_id', 'e.action', 'e.target_type', 'e.target_id', 'e.target_iid', 'e.target_title',
      'e.push_data', 'e.created_at', 'u.username', 'u.name', 'u.state', 'u.avatar',
    ]);
}

export type EventRow = Awaited<ReturnType<ReturnType<typeof selectRows>['execute']>>[number];

function applyFilters<Q extends { where(...args: any[]): Q }>(query: Q, filters: EventFilters): Q {
  let q = query;
  if (filters.action) q = q.where('e.action', '=', filters.action);
  if (filters.targetType === 'note') q = q.where('e.target_type', 'in', [...NOTE_TARGET_TYPES]);
  else if (filters.targetType) q = q.where('e.target_type', '=', EVENT_TARGET_TYPES[filters.targetType]);
  const edges = dayEdges(filters);
  if (edges.before !== undefined) q = q.where('e.created_at', '<', edges.before);
  if (edges.after !== undefined) q = q.where('e.created_at', '>=', edges.after);
  return q;
}

// Page sizes and offsets are integers of our own (pagination.ts), inlined as literals: SQLite plans a
// bound LIMIT inside the per-project subqueries several times slower (measured 55 µs against 175 µs).
export interface EventListing {
  /** Ids of every visible event of the subject with the filters (no joins), for the bounded count. */
  matching: ReturnType<typeof selectIds>;
  /** Everything `matching` depends on, as a string: the count cache's key without compiling the SQL. */
  countKey: string;
  /** One page of rows, in id order (GitLab orders by id whatever its documentation says, §5.2). */
  page(offset: number, limit: number): Promise<EventRow[]>;
}

type AnySelect = SelectQueryBuilder<any, any, any>;

function selectIds(deps: Deps) {
  return deps.db.selectFrom('events as e').select('e.id');
}

export async function listEvents(deps: Deps, viewer: Viewer, subject: EventSubject, filters: EventFilters): Promise<EventListing> {
  const direction = filters.sort ?? 'desc';
  const needsMemberships = !('nobody' in subject) && !('project' in subject) && !(viewer?.admin && 'author' in subject);
  const memberships = viewer && needsMemberships ? await membershipsOf(deps.db, viewer.id, deps.clock.now()) : new Map();
  const groups = needsMemberships ? groupMemberships(viewer, memberships) : null;
  const constrain = <Q>(query: Q): Q => {
    let q = applyFilters(query as unknown as AnySelect, filters);
    if ('nobody' in subject) q = q.where(noEvents());
    if ('author' in subject) q = q.where('e.author_id', '=', subject.author).where(visibleEventSql(viewer, groups));
    if ('namespaces' in subject) {
      const projects = deps.db.selectFrom('projects').select('projects.id').where('projects.namespace_id', 'in', subject.namespaces.length ? subject.namespaces : [-1]);
      q = q.where('e.project_id', 'in', projects).where(visibleEventSql(viewer, groups));
    }
    // Across projects the wiki's own access level is asked in SQL (one project's route knows it: `access`).
    if (!viewer?.admin && ('author' in subject || 'namespaces' in subject || 'memberOf' in subject)) q = q.where(wikiEventsReadableSql(deps.dialect, groups?.all ?? []));
    if ('project' in subject) {
      q = q.where('e.project_id', '=', subject.project);
      const hidden = limitedAccessSql(viewer?.id ?? null, subject.access);
      if (hidden) q = q.where(hidden);
    }
    if ('memberOf' in subject) {
      const member = groups as MemberGroups;
      q = q.where(inProjects(member.all)).where(memberEventsSql(viewer?.id ?? null, member));
    }
    return q as unknown as Q;
  };
  const matching = constrain(selectIds(deps));
  const countKey = JSON.stringify([viewer?.id ?? null, viewer?.admin ?? false, subject, filters.action, filters.targetType, filters.before, filters.after, groups]);
  if ('memberOf' in subject && groups && groups.all.length > 1 && groups.all.length <= MERGE_LIMIT) {
    return { matching, countKey, page: mergedPage(deps, groups, viewer, filters) };
  }
  return { matching, countKey, page: (offset, limit) => constrain(selectRows(deps)).orderBy('e.id', direction).limit(literal(limit)).offset(literal(offset)).execute() };
}

/**
 * A page over a few member projects: the first `offset + limit` ids of each project come from its own
 * (project_id, …, id) index range, one small query per project; only those ids are merged here and the
 * page's rows fetched by id. Sorting every matching event instead cost 25–35 ms at 5,000 events, and
 * one SQL statement doing the same merge (a UNION of per-project subqueries) planned several times
 * slower on SQLite than these separate index range reads.
 */
function mergedPage(deps: Deps, member: MemberGroups, viewer: Viewer, filters: EventFilters): EventListing['page'] {
  const direction = filters.sort ?? 'desc';
  const newestIds = async (projectId: number, depth: number): Promise<number[]> => {
    let query = applyFilters(deps.db.selectFrom('events as e').select('e.id').where('e.project_id', '=', projectId), filters);
    const hidden = memberRestriction(viewer, member, projectId);
    if (hidden) query = query.where(hidden);
    if (!viewer?.admin) query = query.where(wikiEventsReadableSql(deps.dialect, member.all));
    return (await query.orderBy('e.id', direction).limit(literal(depth)).execute()).map((row) => Number(row.id));
  };
  return async (offset, limit) => {
    const perProject = await Promise.all(member.all.map((id) => newestIds(id, offset + limit)));
    const ids = perProject.flat().sort((a, b) => (direction === 'desc' ? b - a : a - b)).slice(offset, offset + limit);
    if (ids.length === 0) return [];
    return selectRows(deps).where('e.id', 'in', ids).orderBy('e.id', direction).execute();
  };
}


function notesQuery(deps: Deps, ids: number[]) {
  return deps.db
    .selectFrom('notes as n')
    .innerJoin('users as u', 'u.id', 'n.author_id')
    .leftJoin('issues as i', (join) => join.onRef('i.id', '=', 'n.noteable_id').on('n.noteable_type', '=', 'Issue'))
    .leftJoin('merge_requests as m', (join) => join.onRef('m.id', '=', 'n.noteable_id').on('n.noteable_type', '=', 'MergeRequest'))
    .select((eb) => [
      'n.id', 'n.body', 'n.author_id', 'n.system', 'n.noteable_id', 'n.noteable_type', 'n.type', 'n.created_at', 'n.updated_at',
      'u.username', 'u.name', 'u.state', 'u.avatar', eb.fn.coalesce('i.iid', 'm.iid').as('noteable_iid'),
    ])
    .where('n.id', 'in', ids);
}

export type NoteWithAuthor = Awaited<ReturnType<ReturnType<typeof notesQuery>['execute']>>[number];

/** Whether an event's target is a comment (any of the note classes). */
export function isNoteEvent(row: Pick<EventRow, 'target_type'>): boolean {
  return (NOTE_TARGET_TYPES as readonly string[]).includes(row.target_type ?? '');
}

/** The comments that a page of comment events points at, with their authors and noteable iids, in one query. */
export async function notesForEvents(deps: Deps, rows: EventRow[]): Promise<Map<number, NoteWithAuthor>> {
  const ids = [...new Set(rows.filter((row) => isNoteEvent(row) && row.target_id !== null).map((row) => Number(row.target_id)))];
  if (ids.length === 0) return new Map();
  const notes = await notesQuery(deps, ids).execute();
  return new Map(notes.map((note) => [Number(note.id), note]));
}

export interface WikiPageOfEvent { format: string; slug: string; title: string; removed: number }

/**
 * The wiki pages that a page of wiki events points at (their meta records, wiki_page_meta), in one query:
 * the page as it is now, as GitLab's Event#wiki_page finds it; a deleted page is none.
 */
export async function wikiPagesForEvents(deps: Deps, rows: EventRow[]): Promise<Map<number, WikiPageOfEvent>> {
  const ids = [...new Set(rows.filter((row) => row.target_type === EVENT_TARGET_TYPES.wiki && row.target_id !== null).map((row) => Number(row.target_id)))];
  if (ids.length === 0) return new Map();
  const pages = await deps.db.selectFrom('wiki_page_meta').select(['id', 'format', 'slug', 'title', 'removed']).where('id', 'in', ids).execute();
  return new Map(pages.map((page) => [Number(page.id), page]));
}
