// The web paths of listed milestones that belong to another project or group than the one asked.
import type { Deps } from '../platform/deps.js';
import type { MilestoneParentPath, MilestoneRow } from './entities.js';
import type { MilestoneParent } from './finder.js';

export async function parentPaths(deps: Deps, rows: MilestoneRow[], parent: MilestoneParent, own: MilestoneParentPath): Promise<Map<number, MilestoneParentPath>> {
  const ownId = 'project' in parent ? Number(parent.project.id) : Number(parent.group.id);
  const foreign = rows.filter((row) => (own.kind === 'project' ? Number(row.project_id) !== ownId : Number(row.group_id) !== ownId));
  const paths = new Map<number, MilestoneParentPath>();
  if (foreign.length === 0) return paths;
  const projectIds = foreign.filter((row) => row.project_id !== null).map((row) => Number(row.project_id));
  const groupIds = foreign.filter((row) => row.group_id !== null).map((row) => Number(row.group_id));
  const projects = projectIds.length ? await deps.db.selectFrom('projects').select(['id', 'full_path']).where('id', 'in', projectIds).execute() : [];
  const groups = groupIds.length ? await deps.db.selectFrom('namespaces').select(['id', 'full_path']).where('id', 'in', groupIds).execute() : [];
  for (const row of foreign) {
    const owner = row.project_id !== null ? projects.find((project) => Number(project.id) === Number(row.project_id)) : groups.find((group) => Number(group.id) === Number(row.group_id));
    if (owner) paths.set(Number(row.id), { kind: row.project_id !== null ? 'project' : 'group', fullPath: owner.full_path });
  }
  return paths;
}
