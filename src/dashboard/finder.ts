// What the dashboard pages read besides the issue and merge request listings: the projects and groups
// a page of records belongs to (for their references and links), and the reader's time zone.
import type { Deps } from '../platform/deps.js';

/** Full paths by id of projects or of groups (namespaces). */
async function fullPaths(deps: Deps, table: 'projects' | 'namespaces', ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  const rows = unique.length ? await deps.db.selectFrom(table).select(['id', 'full_path']).where('id', 'in', unique).execute() : [];
  return new Map(rows.map((row) => [Number(row.id), row.full_path]));
}

export const projectPaths = (deps: Deps, ids: number[]) => fullPaths(deps, 'projects', ids);
export const groupPaths = (deps: Deps, ids: number[]) => fullPaths(deps, 'namespaces', ids);

/** The time zone the user reads times in (their preference). */
export async function timeZoneOf(deps: Deps, userId: number): Promise<string> {
  return (await deps.db.selectFrom('users').select('time_zone').where('id', '=', userId).executeTakeFirst())?.time_zone ?? 'UTC';
}
