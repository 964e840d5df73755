// The look-ups every request starts with (lookup.ts), as raw SQL read through the read cache.
import { q, type Statement } from '../platform/db/statements.js';

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
