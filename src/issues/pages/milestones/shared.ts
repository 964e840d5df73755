// What the milestone pages share: the parent (a project or a group) a page stands in, with its base
// path, title and sidebar, so one list and one show page serve both.
import type { GroupAccess, ProjectAccess } from '../../../platform/auth/subjects.js';
import { html, type Html } from '../../../platform/web/html.js';
import { canOnGroup, canOnProject } from '../../../platform/auth/policies/policy.js';
import { groupSidebar, projectSidebar } from '../../../platform/web/project-nav.js';
import type { MilestoneParent } from '../../../milestones/api.js';
import type { MilestoneRow } from '../../../milestones/api.js';

export interface MilestonePageParent {
  parent: MilestoneParent;
  /** `/<project path>` or `/groups/<group path>`. */
  base: string;
  name: string;
  sidebar: Html;
  /** The project `#12` in a description refers to; none for a group milestone. */
  project?: ProjectAccess;
  /** The viewer may create, change, close and delete its milestones (admin_milestone). */
  manage: boolean;
}

export function projectParent(access: ProjectAccess): MilestonePageParent {
  return { parent: { project: access.project }, base: `/${access.project.full_path}`, name: access.project.name, sidebar: projectSidebar(access, 'milestones'), project: access, manage: canOnProject(access, 'admin_milestone') };
}

export function groupParent(access: GroupAccess): MilestonePageParent {
  return { parent: { group: access.group }, base: `/groups/${access.group.full_path}`, name: access.group.name, sidebar: groupSidebar(access, 'milestones'), manage: canOnGroup(access, 'admin_milestone') };
}

export function milestoneState(milestone: Pick<MilestoneRow, 'state'>): Html {
  return html`<span class="badge state-${milestone.state}">${milestone.state === 'active' ? 'Open' : 'Closed'}</span>`;
}

export function dates(milestone: Pick<MilestoneRow, 'start_date' | 'due_date'>): Html {
  if (!milestone.start_date && !milestone.due_date) return html`<span class="muted">No dates</span>`;
  return html`${milestone.start_date ? html`Starts ${milestone.start_date}` : ''}${milestone.start_date && milestone.due_date ? ' · ' : ''}${milestone.due_date ? html`Due ${milestone.due_date}` : ''}`;
}
