// The look-ups every request starts with (lookup.ts), as raw SQL through the row cache; each names
// the tables it reads.
import { q, type Statement } from '../platform/db/statements.js';
import type { CachedTable } from '../platform/db/reads.js';

export const PROJECT_TABLES: readonly CachedTable[] = ['projects'];
export const REDIRECT_TABLES: readonly CachedTable[] = ['redirect_routes', 'projects'];
export const USER_TABLES: readonly CachedTable[] = ['users'];
export const GROUP_TABLES: readonly CachedTable[] = ['namespaces'];

export function groupById(id: number): Statement {
  return q`select * from namespaces where kind = 'group' and id = ${id}`;
}

export function groupByPath(fullPathLower: string): Statement {
  return q`select * from namespaces where kind = 'group' and full_path_lower = ${fullPathLower}`;
}

export function projectById(id: number): Statement {
  return q`select * from projects where id = ${id}`;
}

export function projectByPath(fullPathLower: string): Statement {
  return q`select * from projects where full_path_lower = ${fullPathLower}`;
}

/** The project an old path of a renamed or transferred project leads to. */
export function projectByRedirect(pathLower: string): Statement {
  return q`select p.* from redirect_routes r join projects p on p.id = r.source_id
    where r.path_lower = ${pathLower} and r.source_type = 'Project'`;
}

export function userById(id: number): Statement {
  return q`select * from users where id = ${id}`;
}

export function userByUsername(usernameLower: string): Statement {
  return q`select * from users where username_lower = ${usernameLower}`;
}
