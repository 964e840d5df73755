// What the label pages share: the parent (a project or a group) a page stands in, with its base path,
// name, sidebar and whether the viewer manages its labels (admin_label).
import type { GroupAccess, ProjectAccess } from '../../platform/auth/subjects.js';
import { canOnGroup, canOnProject } from '../../platform/auth/policies/policy.js';
import { NotFoundError } from '../../platform/errors.js';
import type { Deps } from '../../platform/deps.js';
import type { Html } from '../../platform/web/html.js';
import { groupSidebar, projectSidebar } from '../../platform/web/project-nav.js';
import type { LabelRow } from '../entities.js';
import type { LabelParent } from '../finder.js';

export interface LabelPageParent {
  parent: LabelParent;
  /** `/<project path>` or `/groups/<group path>`. */
  base: string;
  name: string;
  sidebar: Html;
  manage: boolean;
  kind: 'project' | 'group';
}

export function projectLabelParent(access: ProjectAccess): LabelPageParent {
  return { parent: { project: access.project }, base: `/${access.project.full_path}`, name: access.project.name, sidebar: projectSidebar(access, 'labels'), manage: canOnProject(access, 'admin_label'), kind: 'project' };
}

export function groupLabelParent(access: GroupAccess): LabelPageParent {
  return { parent: { group: access.group }, base: `/groups/${access.group.full_path}`, name: access.group.name, sidebar: groupSidebar(access, 'labels'), manage: canOnGroup(access, 'admin_label'), kind: 'group' };
}

/** A label of the parent itself (never an ancestor group's: a page changes only its own labels), or 404. */
export async function ownLabel(deps: Deps, target: LabelPageParent, id: string | undefined): Promise<LabelRow> {
  const query = deps.db.selectFrom('labels').selectAll().where('id', '=', Number(id));
  const label = await ('project' in target.parent ? query.where('project_id', '=', Number(target.parent.project.id)) : query.where('group_id', '=', Number(target.parent.group.id))).executeTakeFirst();
  if (!label) throw new NotFoundError('Label');
  return label;
}
