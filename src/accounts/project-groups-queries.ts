// GET /projects/:id/groups (GitLab's Projects::GroupsFinder): the project's group and every group above
// it, newest first; with `with_shared`, the groups the project is shared with too (at least
// `shared_min_access_level`; with `shared_visible_only`, those the caller can see).
import { sql, type SelectQueryBuilder } from 'kysely';
import type { DB } from '../platform/db/schema.js';
import type { Deps } from '../platform/deps.js';
import type { Executor } from '../platform/db/database.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { namespaceChainText, templateOfText } from '../platform/auth/membership-queries.js';
import { nameOrPathLike } from './finders-queries.js';
import { containsPattern } from './like-pattern.js';

// Placeholder: the project's namespace (a user's namespace is in the chain too, and left out by kind).
const CHAIN_IDS = templateOfText(`id in (${namespaceChainText('namespaces n where n.id = ?')} select id from chain)`);

export interface ProjectGroupsFilters {
  search?: string;
  skipGroups: number[];
  /** The groups the project is shared with, at least at `minAccessLevel`, among `visible` when given. */
  shared?: { minAccessLevel?: number; visible?: SelectQueryBuilder<DB, 'namespaces', { id: number }> };
}

export function projectGroupsQuery(deps: Deps, project: ProjectRow, filters: ProjectGroupsFilters) {
  const chain = sql<boolean>(CHAIN_IDS, Number(project.namespace_id));
  let query = deps.db.selectFrom('namespaces').selectAll().where('kind', '=', 'group');
  const { shared } = filters;
  if (!shared) query = query.where(chain);
  else {
    let links = deps.db.selectFrom('project_group_links').select('group_id').where('project_id', '=', Number(project.id));
    if (shared.minAccessLevel !== undefined) links = links.where('group_access', '>=', shared.minAccessLevel);
    if (shared.visible) links = links.where('group_id', 'in', shared.visible);
    query = query.where((eb) => eb.or([chain, eb('id', 'in', links)]));
  }
  if (filters.skipGroups.length) query = query.where('id', 'not in', filters.skipGroups);
  if (filters.search) query = query.where(nameOrPathLike(containsPattern(filters.search.toLowerCase())));
  return query.orderBy('id', 'desc');
}

/** The project's group and every group above it (none for a personal project): what sharing the project checks. */
export function projectChainGroups(executor: Executor, project: ProjectRow) {
  return executor.selectFrom('namespaces').select(['id', 'settings']).where('kind', '=', 'group').where(sql<boolean>(CHAIN_IDS, Number(project.namespace_id)));
}
