// A project read together with the caller's token (resolve-token-with-project.ts), as findProject
// takes it: the rows rebuilt from the statement's prefixed columns, built once per cached row, and
// read again where an answer the read cache keeps depends on them (`currentPrefetched`).
import type { Deps } from '../platform/deps.js';
import type { NamespaceRow, PrefetchedProject, ProjectRow } from '../platform/auth/subjects.js';
import type { Statement } from '../platform/db/statements.js';
import { memberLevelOf } from './access.js';
import type { TokenWithProjectRow } from './token-with-project-queries.js';

export type Row = TokenWithProjectRow & Record<string, any>;

function projectOf(row: Row): ProjectRow {
  return {
    id: row.p_id as number,
    namespace_id: row.p_namespace_id,
    name: row.p_name,
    path: row.p_path,
    full_path: row.p_full_path,
    full_path_lower: row.p_full_path_lower,
    description: row.p_description,
    visibility: row.p_visibility,
    creator_id: row.p_creator_id,
    default_branch: row.p_default_branch,
    created_at: row.p_created_at,
    updated_at: row.p_updated_at,
    last_activity_at: row.p_last_activity_at,
    topics: row.p_topics,
    issues_access_level: row.p_issues_access_level,
    repository_access_level: row.p_repository_access_level,
    star_count: row.p_star_count,
    avatar: row.p_avatar,
  };
}

function namespaceOf(row: Row): NamespaceRow {
  return {
    id: row.ns_id as number,
    kind: row.ns_kind,
    name: row.ns_name,
    path: row.ns_path,
    full_path: row.ns_full_path,
    full_path_lower: row.ns_full_path_lower,
    parent_id: row.ns_parent_id,
    owner_id: row.ns_owner_id,
    visibility: row.ns_visibility,
    description: row.ns_description,
    read_only: row.ns_read_only,
    created_at: row.ns_created_at,
    updated_at: row.ns_updated_at,
    avatar: row.ns_avatar,
    deletion_scheduled_at: row.ns_deletion_scheduled_at,
  };
}

// The read cache hands the same frozen row to every request until the data changes: the rows built
// from it are built once too, and frozen like it (callers share them).
const built = new WeakMap<Row, PrefetchedProject | null>();

export function prefetchedOf(row: Row): PrefetchedProject | null {
  // A row of its own (the cache is off): nobody shares it, nothing to remember.
  if (!Object.isFrozen(row)) return row.p_id === null ? null : { project: projectOf(row), namespace: namespaceOf(row), memberLevel: memberLevelOf(row.project_level, row.group_level) };
  let prefetched = built.get(row);
  if (prefetched === undefined) {
    prefetched =
      row.p_id === null
        ? null
        : Object.freeze({ project: Object.freeze(projectOf(row)), namespace: Object.freeze(namespaceOf(row)), memberLevel: memberLevelOf(row.project_level, row.group_level) });
    built.set(row, prefetched);
  }
  return prefetched;
}

// The statement each prefetched project was read by, to read it again (`currentPrefetched`).
const readBy = new WeakMap<PrefetchedProject, Statement>();

/**
 * The prefetched project as it is now, for a caller that may be computing an answer the read cache
 * keeps (`cachedAnswer`, `cachedPage`): such an answer depends on the tables its reads name, and is
 * exact only if they ran after it started. Reading the same statement again through the cache is a
 * hit that records them (no statement runs unless the data changed meanwhile, which this read then
 * sees). Only with SQLite's read cache off (`KILN_READ_CACHE=false`), where nothing is kept, are the
 * rows used as read; PostgreSQL's cache is always on. Null when the project is gone.
 */
export async function currentPrefetched(deps: Deps, prefetched: PrefetchedProject): Promise<PrefetchedProject | null> {
  const statement = readBy.get(prefetched);
  if (statement === undefined || (deps.dialect === 'sqlite' && !deps.config.readCache)) return prefetched;
  const row = (await deps.readCache.all<Row>(statement, { cache: true }))[0];
  const current = row ? prefetchedOf(row) : null;
  if (current) readBy.set(current, statement);
  return current;
}

/** Remember which statement read `project`, for `currentPrefetched`. */
export function rememberReadBy(project: PrefetchedProject, statement: Statement): void {
  readBy.set(project, statement);
}
