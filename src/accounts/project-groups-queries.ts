// GET /projects/:id/groups (GitLab's Projects::GroupsFinder): the project's group and every group above
// it, newest first. GitLab adds the groups a project is shared with when `with_shared` is set; Kiln
// does not yet (the groups are in project_group_links).
import { sql } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { Executor } from '../platform/db/database.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { namespaceChainText, templateOfText } from '../platform/auth/membership-queries.js';
import { nameOrPathLike } from './finders-queries.js';
import { containsPattern } from './like-pattern.js';

// Placeholder: the project's namespace (a user's namespace is in the chain too, and left out by kind).
const CHAIN_IDS = templateOfText(`id in (${namespaceChainText('namespaces n where n.id = ?')} select id from chain)`);

export function projectGroupsQuery(deps: Deps, project: ProjectRow, filters: { search?: string; skipGroups: number[] }) {
  let query = deps.db.selectFrom('namespaces').selectAll().where('kind', '=', 'group').where(sql<boolean>(CHAIN_IDS, Number(project.namespace_id)));
  if (filters.skipGroups.length) query = query.where('id', 'not in', filters.skipGroups);
  if (filters.search) query = query.where(nameOrPathLike(containsPattern(filters.search.toLowerCase())));
  return query.orderBy('id', 'desc');
}

/** The project's group and every group above it (none for a personal project): what sharing the project checks. */
export function projectChainGroups(executor: Executor, project: ProjectRow) {
  return executor.selectFrom('namespaces').select(['id', 'settings']).where('kind', '=', 'group').where(sql<boolean>(CHAIN_IDS, Number(project.namespace_id)));
}
