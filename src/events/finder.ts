// The events listings (GitLab's EventsFinder, gitlab-rest.md §5.1–5.2): one base query over `events e`
// with the author joined, small optional filters applied one after another, visibility in SQL.
import { sql } from 'kysely';
import type { Deps } from '../platform/deps.js';
import { EVENT_TARGET_TYPES, type EventAction } from './vocabulary.js';
import { memberProjectIdsSql, visibleEventSql, type Viewer } from './visibility.js';

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

export type EventSubject = { author: number } | { project: number } | { memberOf: Viewer } | { nobody: true };

const DAY_MS = 86_400_000;

/** Day edges in UTC (GitLab compares in the server's zone, UTC): `before` < day start, `after` ≥ next day start. */
export function dayEdges(filters: Pick<EventFilters, 'before' | 'after'>): { before?: number; after?: number } {
  return {
    before: filters.before ? Date.parse(`${filters.before}T00:00:00.000Z`) : undefined,
    after: filters.after ? Date.parse(`${filters.after}T00:00:00.000Z`) + DAY_MS : undefined,
  };
}

export function eventsQuery(deps: Deps, viewer: Viewer, subject: EventSubject, filters: EventFilters) {
  const now = deps.clock.now();
  let query = deps.db
    .selectFrom('events as e')
    .innerJoin('users as u', 'u.id', 'e.author_id')
    .select([
      'e.id', 'e.project_id', 'e.author_id', 'e.action', 'e.target_type', 'e.target_id', 'e.target_iid', 'e.target_title',
      'e.push_data', 'e.created_at', 'u.username', 'u.name', 'u.state',
    ]);
  if ('author' in subject) query = query.where('e.author_id', '=', subject.author);
  if ('project' in subject) query = query.where('e.project_id', '=', subject.project);
  if ('memberOf' in subject) query = query.where(sql<boolean>`e.project_id in (${memberProjectIdsSql(subject.memberOf.id, now)})`);
  if ('nobody' in subject) query = query.where(sql<boolean>`1 = 0`);
  query = query.where(visibleEventSql(viewer, now));
  if (filters.action) query = query.where('e.action', '=', filters.action);
  if (filters.targetType) query = query.where('e.target_type', '=', EVENT_TARGET_TYPES[filters.targetType]);
  const edges = dayEdges(filters);
  if (edges.before !== undefined) query = query.where('e.created_at', '<', edges.before);
  if (edges.after !== undefined) query = query.where('e.created_at', '>=', edges.after);
  // GitLab orders by id (monotonic with creation), whatever the documentation says (§5.2).
  return query.orderBy('e.id', filters.sort ?? 'desc');
}

export type EventRow = Awaited<ReturnType<ReturnType<typeof eventsQuery>['execute']>>[number];

function notesQuery(deps: Deps, ids: number[]) {
  return deps.db
    .selectFrom('notes as n')
    .innerJoin('users as u', 'u.id', 'n.author_id')
    .leftJoin('issues as i', (join) => join.onRef('i.id', '=', 'n.noteable_id').on('n.noteable_type', '=', 'Issue'))
    .select([
      'n.id', 'n.body', 'n.author_id', 'n.system', 'n.noteable_id', 'n.noteable_type', 'n.created_at', 'n.updated_at',
      'u.username', 'u.name', 'u.state', 'i.iid as noteable_iid',
    ])
    .where('n.id', 'in', ids);
}

export type NoteWithAuthor = Awaited<ReturnType<ReturnType<typeof notesQuery>['execute']>>[number];

/** The comments that a page of `Note` events points at, with their authors and issue iids, in one query. */
export async function notesForEvents(deps: Deps, rows: EventRow[]): Promise<Map<number, NoteWithAuthor>> {
  const ids = [...new Set(rows.filter((row) => row.target_type === 'Note' && row.target_id !== null).map((row) => Number(row.target_id)))];
  if (ids.length === 0) return new Map();
  const notes = await notesQuery(deps, ids).execute();
  return new Map(notes.map((note) => [Number(note.id), note]));
}
