// Which labels a project or group sees (GitLab's LabelsFinder, `available_labels_for`): a project its
// own and those of every ancestor group; a group its own, and optionally its ancestors' and
// descendants' (and their projects' labels). Ordered by title, as GitLab's default scope.
import type { Deps } from '../platform/deps.js';
import type { NamespaceRow, ProjectRow } from '../platform/auth/subjects.js';
import { NotFoundError } from '../platform/errors.js';
import type { LabelRow } from './entities.js';
import { groupAndAncestorIds, groupAndDescendantIds, titleOrDescriptionContains } from './labels-queries.js';

export type LabelParent = { project: ProjectRow } | { group: NamespaceRow };

export interface LabelScope {
  includeAncestorGroups?: boolean;
  /** Groups only (GitLab 13.6): labels of subgroups, and with `onlyGroupLabels: false` of their projects. */
  includeDescendantGroups?: boolean;
  onlyGroupLabels?: boolean;
  search?: string;
}

export async function availableLabelsQuery(deps: Deps, parent: LabelParent, scope: LabelScope = {}) {
  const includeAncestors = scope.includeAncestorGroups ?? true;
  let groupIds: number[] = [];
  let projectIds: number[] = [];
  if ('project' in parent) {
    projectIds = [Number(parent.project.id)];
    if (includeAncestors) groupIds = await groupAndAncestorIds(deps.db, Number(parent.project.namespace_id));
  } else {
    const own = Number(parent.group.id);
    groupIds = includeAncestors ? await groupAndAncestorIds(deps.db, own) : [own];
    const tree = scope.includeDescendantGroups ? await groupAndDescendantIds(deps.db, own) : [own];
    groupIds = [...new Set([...groupIds, ...tree])];
    if (scope.onlyGroupLabels === false) {
      const projects = await deps.db.selectFrom('projects').select('id').where('namespace_id', 'in', tree).execute();
      projectIds = projects.map((row) => Number(row.id));
    }
  }
  let query = deps.db.selectFrom('labels').selectAll().where((eb) => eb.or([
    ...(projectIds.length ? [eb('project_id', 'in', projectIds)] : []),
    ...(groupIds.length ? [eb('group_id', 'in', groupIds)] : []),
    ...(projectIds.length || groupIds.length ? [] : [eb('id', '=', -1)]),
  ]));
  if (scope.search) query = query.where(titleOrDescriptionContains(scope.search));
  return query.orderBy('title').orderBy('id');
}

/**
 * A label by id or by title (GitLab tries the id first), among those the parent sees; 404 Label Not
 * Found otherwise. Writes pass `includeAncestorGroups: false`: a project changes only its own labels.
 */
export async function findLabel(deps: Deps, parent: LabelParent, idOrTitle: string | number, scope: LabelScope = {}): Promise<LabelRow> {
  const labels = await availableLabelsQuery(deps, parent, scope);
  const key = String(idOrTitle);
  if (/^\d+$/.test(key)) {
    const byId = await labels.where('id', '=', Number(key)).executeTakeFirst();
    if (byId) return byId;
  }
  // A project's own label wins over an ancestor group's of the same title.
  const byTitle = await labels.where('title', '=', key).execute();
  const found = byTitle.find((label) => label.project_id !== null) ?? byTitle[0];
  if (!found) throw new NotFoundError('Label');
  return found;
}

/** Labels by id, in no particular order (those deleted since are simply absent). */
export async function labelsByIds(deps: Deps, ids: number[]): Promise<LabelRow[]> {
  return ids.length ? deps.db.selectFrom('labels').selectAll().where('id', 'in', ids).execute() : [];
}
