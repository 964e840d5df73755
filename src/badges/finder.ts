// Which badges a project or group has (GitLab's Project#badges and Group#badges): a group its own; a
// project its own and those of its group and every ancestor group. Oldest first, as GitLab's scope.
import type { Deps } from '../platform/deps.js';
import type { NamespaceRow, ProjectRow } from '../platform/auth/subjects.js';
import { RecordNotFoundError } from '../platform/errors.js';
import { groupAndAncestorIds } from '../labels/api.js';
import type { BadgeRow } from './entities.js';

export type BadgeSource = { project: ProjectRow } | { group: NamespaceRow };

export async function badgesQuery(deps: Deps, source: BadgeSource) {
  const query = deps.db.selectFrom('badges').selectAll();
  if ('group' in source) return query.where('group_id', '=', Number(source.group.id)).orderBy('created_at').orderBy('id');
  const groupIds = await groupAndAncestorIds(deps.db, Number(source.project.namespace_id));
  return query
    .where((eb) => eb.or([eb('project_id', '=', Number(source.project.id)), ...(groupIds.length ? [eb('group_id', 'in', groupIds)] : [])]))
    .orderBy('created_at').orderBy('id');
}

/** A badge the source has (a project's includes its groups'), or GitLab's 404 Not found. */
export async function findBadge(deps: Deps, source: BadgeSource, id: number): Promise<BadgeRow> {
  const badge = await (await badgesQuery(deps, source)).where('id', '=', id).executeTakeFirst();
  if (!badge) throw new RecordNotFoundError();
  return badge;
}

/** A badge the source owns itself: a project changes its own badges, not its groups'. */
export async function findOwnBadge(deps: Deps, source: BadgeSource, id: number): Promise<BadgeRow> {
  const badge = await findBadge(deps, source, id);
  if ('project' in source && badge.project_id === null) throw new RecordNotFoundError();
  return badge;
}
