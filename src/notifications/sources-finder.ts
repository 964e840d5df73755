// The groups and projects the profile page offers a notification level for: the groups the user is a
// member of; the projects they belong to directly, through one of those groups or in their personal
// namespace; and any group or project they already have a setting for.
import type { Deps } from '../platform/deps.js';

export interface SourceRow {
  id: number;
  full_path: string;
}

export async function notificationSources(deps: Deps, userId: number, limit: number): Promise<{ groups: SourceRow[]; projects: SourceRow[] }> {
  const memberGroups = deps.db
    .selectFrom('members as m')
    .innerJoin('namespaces as n', 'n.id', 'm.source_id')
    .select(['n.id', 'n.full_path'])
    .where('m.user_id', '=', userId)
    .where('m.source_type', '=', 'Namespace')
    .where('n.kind', '=', 'group');
  const configuredGroups = deps.db
    .selectFrom('notification_settings as s')
    .innerJoin('namespaces as n', 'n.id', 's.source_id')
    .select(['n.id', 'n.full_path'])
    .where('s.user_id', '=', userId)
    .where('s.source_type', '=', 'Namespace');
  const groups = await deps.db.selectFrom(memberGroups.union(configuredGroups).as('g')).selectAll().orderBy('g.full_path').limit(limit).execute();
  const projects = await deps.db
    .selectFrom('projects as p')
    .select(['p.id', 'p.full_path'])
    .where((eb) => eb.or([
      eb('p.id', 'in', eb.selectFrom('members').select('source_id').where('user_id', '=', userId).where('source_type', '=', 'Project')),
      eb('p.namespace_id', 'in', eb.selectFrom('namespaces').select('id').where('owner_id', '=', userId).where('kind', '=', 'user')),
      eb('p.namespace_id', 'in', eb.selectFrom('members').select('source_id').where('user_id', '=', userId).where('source_type', '=', 'Namespace')),
      eb('p.id', 'in', eb.selectFrom('notification_settings').select('source_id').where('user_id', '=', userId).where('source_type', '=', 'Project')),
    ]))
    .orderBy('p.full_path')
    .limit(limit)
    .execute();
  const row = (source: { id: number | string; full_path: string }): SourceRow => ({ id: Number(source.id), full_path: source.full_path });
  return { groups: groups.map(row), projects: projects.map(row) };
}
