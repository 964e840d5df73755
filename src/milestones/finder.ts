// Which milestones a project or group lists (GitLab's MilestonesFinder): its own, optionally those of
// its ancestor groups (`include_parent_milestones`, `include_ancestors`) and, for a group, of its
// subgroups and their projects (`include_descendants`). A milestone is addressed by its global id
// through its parent (docs/architecture.md); anything else is `404 Not found`.
import type { Deps } from '../platform/deps.js';
import type { Executor } from '../platform/db/database.js';
import type { NamespaceRow, ProjectRow } from '../platform/auth/subjects.js';
import { RecordNotFoundError } from '../platform/errors.js';
import { groupAndAncestorIds, groupAndDescendantIds } from '../labels/api.js';
import type { MilestoneRow } from './entities.js';
import { dueDateNullsLast, titleOrDescriptionContains } from './milestones-queries.js';

export type MilestoneParent = { project: ProjectRow } | { group: NamespaceRow };

export interface MilestoneFilters {
  state?: 'active' | 'closed' | 'all';
  iids?: number[];
  title?: string;
  search?: string;
  includeAncestors?: boolean;
  /** Groups only. */
  includeDescendants?: boolean;
  updatedBefore?: number;
  updatedAfter?: number;
}

export async function milestonesQuery(deps: Deps, parent: MilestoneParent, filters: MilestoneFilters) {
  let projectIds: number[] = [];
  let groupIds: number[] = [];
  if ('project' in parent) {
    projectIds = [Number(parent.project.id)];
    if (filters.includeAncestors) groupIds = await groupAndAncestorIds(deps.db, Number(parent.project.namespace_id));
  } else {
    const own = Number(parent.group.id);
    groupIds = filters.includeAncestors ? await groupAndAncestorIds(deps.db, own) : [own];
    if (filters.includeDescendants) {
      const tree = await groupAndDescendantIds(deps.db, own);
      groupIds = [...new Set([...groupIds, ...tree])];
      projectIds = (await deps.db.selectFrom('projects').select('id').where('namespace_id', 'in', tree).execute()).map((row) => Number(row.id));
    }
  }
  let query = deps.db.selectFrom('milestones').selectAll().where((eb) => eb.or([
    ...(projectIds.length ? [eb('project_id', 'in', projectIds)] : []),
    ...(groupIds.length ? [eb('group_id', 'in', groupIds)] : []),
    ...(projectIds.length || groupIds.length ? [] : [eb('id', '=', -1)]),
  ]));
  if (filters.state && filters.state !== 'all') query = query.where('state', '=', filters.state);
  if (filters.iids?.length) query = query.where('iid', 'in', filters.iids);
  if (filters.title !== undefined) query = query.where('title', '=', filters.title);
  if (filters.search) query = query.where(titleOrDescriptionContains(filters.search));
  if (filters.updatedBefore !== undefined) query = query.where('updated_at', '<', filters.updatedBefore);
  if (filters.updatedAfter !== undefined) query = query.where('updated_at', '>', filters.updatedAfter);
  return query.orderBy(dueDateNullsLast).orderBy('due_date').orderBy('id', 'desc');
}

export async function findMilestone(db: Executor, parent: MilestoneParent, id: number): Promise<MilestoneRow> {
  let query = db.selectFrom('milestones').selectAll().where('id', '=', id);
  query = 'project' in parent ? query.where('project_id', '=', Number(parent.project.id)) : query.where('group_id', '=', Number(parent.group.id));
  const milestone = await query.executeTakeFirst();
  if (!milestone) throw new RecordNotFoundError();
  return milestone;
}
