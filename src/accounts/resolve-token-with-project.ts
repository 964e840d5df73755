// The personal access token of a project-scoped API request and the project its route names, in one
// statement (token-with-project-queries.ts), registered as the route kit's look-up
// (AuthRegistry.personalAccessTokenWithProject). The token is judged exactly as
// resolvePersonalAccessToken judges it; the project is handed to findProject, which asks the same
// abilities of it as of a project it reads itself.
import type { Deps } from '../platform/deps.js';
import type { TokenLookup } from '../platform/auth/principal.js';
import type { NamespaceRow, PrefetchedProject, ProjectRow } from '../platform/auth/subjects.js';
import { sha256Hex } from '../platform/crypto.js';
import { memberLevelOf, today } from './access.js';
import { tokenLookupOf, type TokenRow } from './resolve-personal-access-token.js';
import { tokenWithProject, type TokenWithProjectRow } from './token-with-project-queries.js';

const DIGITS = /^\d+$/;

type Row = TokenWithProjectRow & Record<string, any>;

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

export async function resolveTokenWithProject(deps: Deps, token: string, idOrPath: string): Promise<{ lookup: TokenLookup; project: PrefetchedProject | null }> {
  // Named as findProjectRow names it: digits are an id, a path has a slash; 0 and '' match nothing.
  const id = DIGITS.test(idOrPath) ? Number(idOrPath) : 0;
  const path = id === 0 && idOrPath.includes('/') ? idOrPath.toLowerCase() : '';
  const rows = await deps.readCache.all<Row>(tokenWithProject(sha256Hex(token), id, path, today(deps.clock.now())), { cache: true });
  const row = rows[0];
  if (!row) return { lookup: null, project: null };
  const lookup = await tokenLookupOf(deps, row as unknown as TokenRow);
  return { lookup, project: prefetchedOf(row) };
}

// The read cache hands the same frozen row to every request until the data changes: the rows built
// from it are built once too, and frozen like it (callers share them).
const built = new WeakMap<Row, PrefetchedProject | null>();

function prefetchedOf(row: Row): PrefetchedProject | null {
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
