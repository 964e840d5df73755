// The groups and projects the profile page offers a notification level for: the groups the user
// reaches (GitLab's GroupsFinder over their authorized groups): a live membership of it or of a group
// above it, or a share of it with a group they are in (the rule of platform/auth/membership-queries.ts);
// the projects they belong to directly, through a group they are a member of or in their personal
// namespace (GitLab lists the settings its memberships create, so a project reached only through a
// share is not listed); and any group or project they already have a setting for.
import type { Deps } from '../platform/deps.js';
import { memberGroupsOnly } from '../accounts/api.js';

export interface SourceRow {
  id: number;
  full_path: string;
}

export async function notificationSources(deps: Deps, userId: number, limit: number): Promise<{ groups: SourceRow[]; projects: SourceRow[] }> {
  const memberGroups = deps.db
    .selectFrom('namespaces')
    .select(['id', 'full_path'])
    .where('kind', '=', 'group')
    .where(memberGroupsOnly(userId, deps.clock.now()));
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
