// The milestone pages of projects and groups, open to those who may read milestones.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../platform/deps.js';
import { namespacedPage } from '../../../platform/web/page-route.js';
import { GROUP_MILESTONES_PATTERN, PROJECT_MILESTONES_PATTERN, renderMilestones } from './list-page.js';
import { GROUP_MILESTONE_PATTERN, PROJECT_MILESTONE_PATTERN, renderMilestone } from './show-page.js';
import { groupParent, projectParent } from './shared.js';
import {
  GROUP_EDIT_MILESTONE_PATTERN, GROUP_NEW_MILESTONE_PATTERN, PROJECT_EDIT_MILESTONE_PATTERN, PROJECT_NEW_MILESTONE_PATTERN,
  handleMilestoneForm, renderEditMilestone, renderNewMilestone,
} from './form-page.js';

export function milestonePages(app: FastifyInstance, deps: Deps): void {
  const project = { project: 'read_milestone' } as const;
  const group = { group: 'read_milestone' } as const;
  // The forms ask admin_milestone in their handlers (readers get 403, strangers 404). Registered
  // before the show pattern, which `new` would not match anyway (iids are digits).
  namespacedPage(app, deps, { method: 'GET', pattern: PROJECT_NEW_MILESTONE_PATTERN, ability: project, handler: async (context) => renderNewMilestone(context, projectParent(await context.project())) });
  namespacedPage(app, deps, { method: 'POST', pattern: PROJECT_NEW_MILESTONE_PATTERN, ability: project, handler: async (context) => handleMilestoneForm(context, projectParent(await context.project())) });
  namespacedPage(app, deps, { method: 'GET', pattern: GROUP_NEW_MILESTONE_PATTERN, ability: group, handler: async (context) => renderNewMilestone(context, groupParent(await context.group())) });
  namespacedPage(app, deps, { method: 'POST', pattern: GROUP_NEW_MILESTONE_PATTERN, ability: group, handler: async (context) => handleMilestoneForm(context, groupParent(await context.group())) });
  namespacedPage(app, deps, { method: 'GET', pattern: PROJECT_EDIT_MILESTONE_PATTERN, ability: project, handler: async (context) => renderEditMilestone(context, projectParent(await context.project())) });
  namespacedPage(app, deps, { method: 'POST', pattern: PROJECT_EDIT_MILESTONE_PATTERN, ability: project, handler: async (context) => handleMilestoneForm(context, projectParent(await context.project())) });
  namespacedPage(app, deps, { method: 'GET', pattern: GROUP_EDIT_MILESTONE_PATTERN, ability: group, handler: async (context) => renderEditMilestone(context, groupParent(await context.group())) });
  namespacedPage(app, deps, { method: 'POST', pattern: GROUP_EDIT_MILESTONE_PATTERN, ability: group, handler: async (context) => handleMilestoneForm(context, groupParent(await context.group())) });
  namespacedPage(app, deps, { method: 'GET', pattern: PROJECT_MILESTONES_PATTERN, ability: project, auth: 'optional', handler: async (context) => renderMilestones(context, projectParent(await context.project())) });
  namespacedPage(app, deps, { method: 'GET', pattern: PROJECT_MILESTONE_PATTERN, ability: project, auth: 'optional', handler: async (context) => renderMilestone(context, projectParent(await context.project())) });
  namespacedPage(app, deps, { method: 'GET', pattern: GROUP_MILESTONES_PATTERN, ability: group, auth: 'optional', handler: async (context) => renderMilestones(context, groupParent(await context.group())) });
  namespacedPage(app, deps, { method: 'GET', pattern: GROUP_MILESTONE_PATTERN, ability: group, auth: 'optional', handler: async (context) => renderMilestone(context, groupParent(await context.group())) });
}
